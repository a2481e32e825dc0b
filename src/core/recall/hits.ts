/**
 * Finds where each term occurs, within a scope. Index-only terms (one word, one CJK bigram) are aggregated per
 * session inside SQLite from the FTS rowids alone (see model.ts messageId), so a term found in 60k messages costs
 * one doclist scan, not 60k rows crossing into JS; the hits of a session are fetched only for the few sessions
 * shown. Phrases are confirmed against the normalized body; needles the index cannot serve (a single CJK char,
 * punctuation) scan the scope.
 */
import type { Db } from "../db/sqlite";
import { decodeId, SID_FACTOR, sessionRange, type HitClass } from "./model";
import { expandPrefix } from "./prefix";
import type { Term } from "./query";
import { normalize } from "./text";

export interface Hit {
  mid: number;
  sid: number;
  seq: number;
  cls: HitClass;
  term: number;
  /** On a Claude branch abandoned by a rewind (chain.ts). */
  off: boolean;
}

export interface SessionCount {
  hits: number;
  /** User/assistant text on the live chain. */
  firstHand: number;
  /** Hits on abandoned branches (counted in `hits`, never in `firstHand`). */
  offChain: number;
}

export interface TermResult {
  counts: Map<number, SessionCount>;
  hitsFor(sid: number): Hit[];
}

export interface Scope {
  /** Repo root to restrict to; undefined = global. */
  repo?: string;
}

const toHit = (mid: number, term: number, offChain: Set<number>): Hit => ({
  mid,
  ...decodeId(mid),
  term,
  off: offChain.has(mid),
});

function countHits(hits: Hit[]): Map<number, SessionCount> {
  const counts = new Map<number, SessionCount>();
  for (const h of hits) {
    const c = counts.get(h.sid) ?? { hits: 0, firstHand: 0, offChain: 0 };
    c.hits++;
    if (h.off) c.offChain++;
    else if (h.cls === 0) c.firstHand++;
    counts.set(h.sid, c);
  }
  return counts;
}

/** Rows (mid, body) of the messages in scope that FTS proposes (or all of them, for a scan). */
function candidateRows(db: Db, term: Term, scope: Scope): { mid: number; body: string }[] {
  if (term.fts !== undefined) {
    const where =
      scope.repo !== undefined ? " AND (msg_fts.rowid >> 24) IN (SELECT sid FROM sessions WHERE repo = :repo)" : "";
    return db.all(
      `SELECT m.mid, m.body FROM msg_fts JOIN messages m ON m.mid = msg_fts.rowid WHERE msg_fts MATCH :q${where}`,
      {
        ":q": term.fts,
        ...(scope.repo !== undefined ? { ":repo": scope.repo } : {}),
      },
    );
  }
  if (scope.repo === undefined) return db.all("SELECT mid, body FROM messages");
  const rows: { mid: number; body: string }[] = [];
  const stmt = db.prepare("SELECT mid, body FROM messages WHERE mid BETWEEN ? AND ?");
  try {
    for (const { sid } of db.all<{ sid: number }>("SELECT sid FROM sessions WHERE repo = ?", scope.repo))
      rows.push(...stmt.all<{ mid: number; body: string }>(sessionRange(sid)));
  } finally {
    stmt.finalize();
  }
  return rows;
}

/**
 * The rowids of every message FTS finds for `q`, as the bytes "12,345,…": group_concat keeps the per-row work
 * inside SQLite (a GROUP BY per session cost about four times as much for a common word at 1M messages), and as a
 * BLOB the list crosses into JS as bytes, without decoding a string of several megabytes.
 */
function matchingIds(db: Db, q: string, scope: Scope): Uint8Array {
  const where = scope.repo !== undefined ? " AND (rowid >> 24) IN (SELECT sid FROM sessions WHERE repo = :repo)" : "";
  const row = db.get<{ ids: Uint8Array | null }>(
    `SELECT CAST(group_concat(rowid) AS BLOB) AS ids FROM msg_fts WHERE msg_fts MATCH :q${where}`,
    { ":q": q, ...(scope.repo !== undefined ? { ":repo": scope.repo } : {}) },
  );
  return row?.ids ?? new Uint8Array(0);
}

/**
 * "12,345,…" → ascending ids and the hit counts per session, in one pass over the bytes (about 9 ms for 450k ids):
 * a session's ids are one contiguous range of the ascending list, and the hit class (id mod 4) is the value of
 * the last two digits mod 4, since 100 is a multiple of 4.
 */
export function scanIds(
  bytes: Uint8Array,
  offChain: Set<number> = new Set(),
): { ids: Float64Array; counts: Map<number, SessionCount> } {
  const counts = new Map<number, SessionCount>();
  const len = bytes.length;
  // message ids are at least SID_FACTOR (8 digits and a comma); the array grows if shorter ones ever occur
  let ids = new Float64Array(Math.floor(len / 9) + 16);
  const checkOff = offChain.size > 0;
  let k = 0;
  let sorted = true;
  let sid = -1;
  let hits = 0;
  let firstHand = 0;
  let off = 0;
  const flush = () => {
    if (sid < 0) return;
    const c = counts.get(sid); // only when FTS did not answer in rowid order
    if (c) {
      c.hits += hits;
      c.firstHand += firstHand;
      c.offChain += off;
    } else counts.set(sid, { hits, firstHand, offChain: off });
  };
  let i = 0;
  while (i < len) {
    let v = 0;
    let prev = 0;
    let last = 0;
    for (let c = bytes[i]; i < len && c !== 44; c = bytes[++i]) {
      prev = last;
      last = c - 48;
      v = v * 10 + last;
    }
    i++; // the comma
    if (k === ids.length) {
      const grown = new Float64Array(k * 2);
      grown.set(ids);
      ids = grown;
    }
    if (k > 0 && v < ids[k - 1]) sorted = false;
    ids[k++] = v;
    const s = Math.floor(v / SID_FACTOR);
    if (s !== sid) {
      flush();
      sid = s;
      hits = firstHand = off = 0;
    }
    hits++;
    if (checkOff && offChain.has(v)) off++;
    else if (((prev * 10 + last) & 3) === 0) firstHand++;
  }
  flush();
  const out = ids.subarray(0, k);
  // FTS5 returns rowids in ascending order; the range lookups rely on it, so check rather than assume
  if (!sorted) out.sort();
  return { ids: out, counts };
}

/** The ids in [lo, hi] of an ascending array. */
function idsBetween(ids: Float64Array, lo: number, hi: number): number[] {
  let a = 0;
  let b = ids.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if (ids[m] < lo) a = m + 1;
    else b = m;
  }
  const out: number[] = [];
  for (let i = a; i < ids.length && ids[i] <= hi; i++) out.push(ids[i]);
  return out;
}

/** `offChain`: ids of the messages on abandoned branches (SessionFacts.offChain). */
export function findTerm(
  db: Db,
  term: Term,
  termIndex: number,
  scope: Scope,
  offChain: Set<number> = new Set(),
): TermResult {
  if (term.fts !== undefined && !term.confirm) {
    const { ids, counts } = scanIds(matchingIds(db, expandPrefix(db, term.fts), scope), offChain);
    return {
      counts,
      hitsFor: (sid) => idsBetween(ids, ...sessionRange(sid)).map((mid) => toHit(mid, termIndex, offChain)),
    };
  }
  const hits = candidateRows(db, term, scope)
    .filter((r) => normalize(r.body).includes(term.norm))
    .map((r) => toHit(r.mid, termIndex, offChain));
  return { counts: countHits(hits), hitsFor: (sid) => hits.filter((h) => h.sid === sid) };
}

/** Where the first needle occurs in `body` (an index into body), or -1. Case-insensitive, NFKC-tolerant. */
export function hitOffset(body: string, needles: string[]): number {
  const lower = body.toLowerCase();
  let norm: string | undefined;
  const find = (n: string): number => {
    const i = lower.indexOf(n);
    if (i >= 0) return i;
    // NFKC changed lengths (full-width text): locate in the normalized copy and map back proportionally
    norm ??= normalize(body);
    const j = norm.indexOf(n);
    return j < 0 ? -1 : Math.floor((j * body.length) / Math.max(1, norm.length));
  };
  let best = -1;
  for (const n of needles) {
    // a phrase may have matched across punctuation ("migration-rollback"): fall back to its first word
    let i = find(n);
    if (i < 0 && n.includes(" ")) i = find(n.slice(0, n.indexOf(" ")));
    if (i >= 0 && (best < 0 || i < best)) best = i;
  }
  return best;
}
