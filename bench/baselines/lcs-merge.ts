/**
 * BASELINE ONLY (bench/text.main.ts): the line merge the extension used before #15 (src/vscode/text-merge.ts),
 * an LCS capped at 4M cells, kept verbatim so the bench can measure the new merge against it in the same run.
 *
 * Three-way line merge for agent writes to an open document (no vscode import, unit-tested with node:test).
 *
 * The agent computed `next` from `base` (what it last read). The user may have typed since, so the buffer
 * now holds `current`. We turn base→next into line hunks and re-apply each hunk to `current` at the place
 * its base lines moved to. A hunk that touches lines the user also changed is a conflict: the caller must
 * not overwrite silently.
 */

export interface TextEdit {
  /** Character offsets into `current`. */
  start: number;
  end: number;
  text: string;
}

interface Hunk {
  /** Line range [start, end) in `base`, replaced by `lines`. */
  start: number;
  end: number;
  lines: string[];
}

/** Lines with their terminators, so joining them gives the text back exactly. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Above this many DP cells the middle of a diff is treated as one replaced block (keeps memory bounded). */
const MAX_CELLS = 4_000_000;

/** Line hunks turning `a` into `b`: common prefix/suffix trimmed, LCS on the middle. */
export function diffLines(a: string[], b: string[]): Hunk[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  if (am.length === 0 && bm.length === 0) return [];
  if (am.length === 0 || bm.length === 0 || (am.length + 1) * (bm.length + 1) > MAX_CELLS) {
    return [{ start: pre, end: pre + am.length, lines: bm }];
  }
  const n = am.length;
  const m = bm.length;
  const w = m + 1;
  // lcs[i*w+j] = LCS length of am[i..] and bm[j..]
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] =
        am[i] === bm[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    }
  }
  const hunks: Hunk[] = [];
  let cur: Hunk | null = null;
  let i = 0;
  let j = 0;
  const flush = () => {
    if (cur) hunks.push(cur);
    cur = null;
  };
  while (i < n || j < m) {
    if (i < n && j < m && am[i] === bm[j]) {
      flush();
      i++;
      j++;
    } else if (j < m && (i >= n || lcs[i * w + j + 1] >= lcs[(i + 1) * w + j])) {
      cur ??= { start: pre + i, end: pre + i, lines: [] };
      cur.lines.push(bm[j++]);
    } else {
      cur ??= { start: pre + i, end: pre + i, lines: [] };
      cur.end = pre + ++i;
    }
  }
  flush();
  return hunks;
}

export type MergeResult = { ok: true; edits: TextEdit[] } | { ok: false; conflictLine: number };

/**
 * Edits that turn `current` into "current plus the agent's change from base to next".
 * When `current === base` this is simply the minimal diff base→next.
 */
export function mergeAgentWrite(base: string, next: string, current: string): MergeResult {
  const baseLines = splitLines(base);
  const agent = diffLines(baseLines, splitLines(next));
  const curLines = splitLines(current);
  const user = base === current ? [] : diffLines(baseLines, curLines);
  const offsets = [0];
  for (const l of curLines) offsets.push(offsets[offsets.length - 1] + l.length);
  const edits: TextEdit[] = [];
  for (const h of agent) {
    let shift = 0;
    for (const u of user) {
      const overlaps = u.start < h.end && h.start < u.end;
      const sameInsertPoint = u.start === h.start && (u.start === u.end || h.start === h.end);
      if (overlaps || sameInsertPoint) return { ok: false, conflictLine: h.start + 1 };
      if (u.end <= h.start) shift += u.lines.length - (u.end - u.start);
    }
    const s = h.start + shift;
    const e = h.end + shift;
    const text = h.lines.join("");
    // The buffer's last line may lack a newline the agent's hunk assumes (or the reverse): keep the agent's text.
    edits.push({ start: offsets[s], end: offsets[e], text });
  }
  return { ok: true, edits };
}

/** Applies edits (non-overlapping, any order) to a string; the same thing a WorkspaceEdit does to a buffer. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((x, y) => y.start - x.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
