/**
 * Evidence windows: per session up to N anchors (covering new terms first, first-hand text preferred), each
 * widened to `before`/`after` messages, merged when they overlap, each message cut to its per-message cap AROUND
 * its hit (never head-first). budget.ts then fits them into the answer's total budget.
 */
import type { Db } from "../db/sqlite";
import { hitOffset, type Hit } from "./hits";
import { messageId } from "./model";

export interface WindowOptions {
  windowsPerSession: number;
  before: number;
  after: number;
  messageChars: number;
  toolMessageChars: number;
}

export interface WindowMessage {
  seq: number;
  role: string;
  kind: string;
  tool: string | null;
  ts: number | null;
  line: number | null;
  text: string;
  hit: boolean;
  truncated: boolean;
  /** On a Claude branch abandoned by a rewind / Esc-Esc: real text, but not part of the live conversation. */
  off_chain: boolean;
}

export interface EvidenceWindow {
  from_seq: number;
  to_seq: number;
  messages: WindowMessage[];
}

/** First-hand text, then tool, then summaries, then harness text (model.ts), each on-chain before off-chain. */
const preference = (h: Hit) => h.cls * 2 + (h.off ? 1 : 0);

function pickAnchors(hits: Hit[], n: number, o: WindowOptions): Hit[] {
  const sorted = [...hits].sort((a, b) => preference(a) - preference(b) || a.seq - b.seq);
  const anchors: Hit[] = [];
  const covered = new Set<number>();
  const inWindow = (h: Hit) => anchors.some((a) => h.seq >= a.seq - o.before && h.seq <= a.seq + o.after);
  // first anchors that bring a term not covered yet, then the best remaining hits outside the windows so far
  for (const h of sorted) {
    if (anchors.length >= n || covered.has(h.term) || inWindow(h)) continue;
    anchors.push(h);
    covered.add(h.term);
  }
  for (const h of sorted) if (anchors.length < n && !inWindow(h)) anchors.push(h);
  return anchors;
}

/** Cuts `text` to `max` chars centred on `at` (the hit), marking cut ends with "…". */
export function cutAround(text: string, at: number, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const centre = at < 0 ? 0 : at;
  let start = Math.max(0, centre - Math.floor(max / 3));
  const end = Math.min(text.length, start + max);
  start = Math.max(0, end - max);
  return { text: `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`, truncated: true };
}

type Row = Omit<WindowMessage, "text" | "hit" | "truncated" | "off_chain"> & { body: string; off_chain: number };

/** A message that may go into a window: cut to its per-message cap, with the priority the budget spends by. */
export interface Candidate {
  /** Index of its window in `ranges`. */
  w: number;
  /** 0 anchor, 1 other hit, 2+ context by distance to the nearest anchor. */
  priority: number;
  m: WindowMessage;
  /** The message before any cut, so a tighter budget can cut it again around its hit. */
  body: string;
}

export interface SessionEvidence {
  /** Merged message ranges, in order. */
  ranges: [number, number][];
  candidates: Candidate[];
}

/** Anchors, their merged ranges and every message in them, cut to the per-message caps (no total budget yet). */
export function collectEvidence(
  db: Db,
  sid: number,
  hits: Hit[],
  needles: string[],
  o: WindowOptions,
): SessionEvidence {
  const anchors = pickAnchors(hits, o.windowsPerSession, o);
  const ranges = anchors
    .map((a): [number, number] => [Math.max(0, a.seq - o.before), a.seq + o.after])
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  const hitSeqs = new Set(hits.map((h) => h.seq));
  const anchorSeqs = new Set(anchors.map((a) => a.seq));
  const stmt = db.prepare(
    "SELECT seq, role, kind, tool, ts, line, body, off_chain FROM messages WHERE mid BETWEEN ? AND ? ORDER BY mid",
  );
  const candidates: Candidate[] = [];
  try {
    merged.forEach(([from, to], w) => {
      for (const r of stmt.all<Row>([messageId(sid, from, 0), messageId(sid, to, 3)])) {
        const hit = hitSeqs.has(r.seq);
        if (!hit && (r.role === "developer" || r.role === "system")) continue; // harness text is context noise
        const max = r.role === "tool" ? o.toolMessageChars : o.messageChars;
        const cut = cutAround(r.body, hit ? hitOffset(r.body, needles) : 0, max);
        const distance = Math.min(...anchors.map((a) => Math.abs(a.seq - r.seq)));
        const priority = anchorSeqs.has(r.seq) ? 0 : hit ? 1 : 2 + distance;
        const m = { seq: r.seq, role: r.role, kind: r.kind, tool: r.tool, ts: r.ts, line: r.line };
        const flags = { hit, truncated: cut.truncated, off_chain: r.off_chain === 1 };
        candidates.push({ w, priority, body: r.body, m: { ...m, text: cut.text, ...flags } });
      }
    });
  } finally {
    stmt.finalize();
  }
  return { ranges: merged, candidates };
}
