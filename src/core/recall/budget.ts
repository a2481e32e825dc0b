/**
 * `--budget-chars` is the TOTAL size of the markdown answer: heading, status, session headers, paths, window and
 * message labels and the quoted evidence all count, measured with the renderer's own line builders. The JSON
 * answer carries exactly the evidence the markdown one shows. Sessions are taken in rank order while each still
 * fits its header and one hit; the rest of the budget is shared among them (unused shares flow to the next), and
 * within a session it goes to anchors first, then other hits, then the nearest context. The last message that
 * does not fit whole is cut around its hit to the room left.
 */
import { hitOffset } from "./hits";
import { linesCost, messageLines, sessionLines, windowLines } from "./render";
import type { SessionResult } from "./result";
import { cutAround, type Candidate, type EvidenceWindow, type SessionEvidence, type WindowMessage } from "./windows";

/** Below this many characters of text a cut hit says nothing: leave it out. */
const MIN_TEXT = 24;

const messageCost = (m: WindowMessage) => linesCost(messageLines(m));

/** `c`'s message cut around its hit so that it costs at most `room`, or undefined when too little would be left. */
function cutToRoom(c: Candidate, needles: string[], room: number): WindowMessage | undefined {
  const at = c.m.hit ? hitOffset(c.body, needles) : 0;
  let max = Math.min(c.m.text.length, room - messageCost({ ...c.m, text: "" }));
  while (max >= MIN_TEXT) {
    const cut = cutAround(c.body, at, max);
    const m = { ...c.m, text: cut.text, truncated: true };
    const over = messageCost(m) - room;
    if (over <= 0) return m;
    max -= Math.max(1, over);
  }
  return undefined;
}

export interface Fitted {
  windows: EvidenceWindow[];
  used: number;
  truncated: boolean;
}

/** Fills a session's windows within `budget` characters (window labels included). */
export function fitEvidence(ev: SessionEvidence, needles: string[], budget: number): Fitted {
  const order = [...ev.candidates].sort((a, b) => a.priority - b.priority || a.m.seq - b.m.seq);
  const kept = new Map<Candidate, WindowMessage>();
  const opened = new Set<number>();
  let used = 0;
  let truncated = ev.candidates.some((c) => c.m.truncated);
  for (const c of order) {
    const head = opened.has(c.w)
      ? 0
      : linesCost(windowLines({ from_seq: ev.ranges[c.w][0], to_seq: ev.ranges[c.w][1] }));
    const whole = head + messageCost(c.m);
    let m: WindowMessage | undefined = c.m;
    if (used + whole > budget) {
      truncated = true;
      m = c.priority <= 1 ? cutToRoom(c, needles, budget - used - head) : undefined;
      if (!m) continue;
    }
    kept.set(c, m);
    opened.add(c.w);
    used += head + messageCost(m);
  }
  const windows = ev.ranges
    .map(([from, to], w) => ({
      from_seq: from,
      to_seq: to,
      messages: ev.candidates.filter((c) => c.w === w && kept.has(c)).map((c) => kept.get(c)!),
    }))
    .filter((w) => w.messages.length > 0);
  return { windows, used, truncated };
}

/** What the smallest useful evidence of a session costs: its first anchor's window label and a short cut. */
function minimumEvidence(ev: SessionEvidence, needles: string[]): number {
  const anchor = ev.candidates.find((c) => c.priority === 0);
  if (!anchor) return 0;
  const head = linesCost(windowLines({ from_seq: ev.ranges[anchor.w][0], to_seq: ev.ranges[anchor.w][1] }));
  const short = Math.min(anchor.m.text.length, 80);
  const m =
    anchor.m.text.length <= short
      ? anchor.m
      : { ...anchor.m, text: cutAround(anchor.body, hitOffset(anchor.body, needles), short).text };
  return head + messageCost(m);
}

/**
 * Sessions (ranked, without windows yet) and their evidence → the sessions shown, within `budget` characters
 * for everything but the answer's heading and tail (the caller has taken those off).
 */
export function fitSessions(
  drafts: { session: Omit<SessionResult, "windows">; evidence: SessionEvidence }[],
  needles: string[],
  budget: number,
): { sessions: SessionResult[]; truncated: boolean } {
  const heads = drafts.map((d, i) => linesCost(sessionLines({ ...d.session, windows: [] }, i)));
  const mins = drafts.map((d) => minimumEvidence(d.evidence, needles));
  let n = 0;
  for (let total = 0; n < drafts.length && total + heads[n] + mins[n] <= budget; n++) total += heads[n] + mins[n];
  let remaining = budget - heads.slice(0, n).reduce((a, b) => a + b, 0);
  let truncated = n < drafts.length;
  const sessions: SessionResult[] = [];
  for (let i = 0; i < n; i++) {
    const reserve = mins.slice(i + 1, n).reduce((a, b) => a + b, 0);
    const fair = Math.floor(remaining / (n - i)); // what a session does not use flows to the ones after it
    const fit = fitEvidence(drafts[i].evidence, needles, Math.min(Math.max(mins[i], fair), remaining - reserve));
    remaining -= fit.used;
    truncated ||= fit.truncated;
    sessions.push({ ...drafts[i].session, windows: fit.windows });
  }
  return { sessions, truncated };
}
