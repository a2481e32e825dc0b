/**
 * Line diff (Myers' O(ND) algorithm, from the `diff` package): the hunks that turn one list of lines into another.
 * Pure code: used by the editor merge, the thread panel's diff view (browser bundle) and anything that counts hunks.
 */
import { diffArrays } from "diff";
import { splitLines } from "./lines";

export interface LineHunk {
  /** Line range [start, end) in the old lines, replaced by `lines`. */
  start: number;
  end: number;
  lines: string[];
}

export function diffLines(a: readonly string[], b: readonly string[]): LineHunk[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  if (am.length === 0 && bm.length === 0) return [];
  if (am.length === 0 || bm.length === 0) return [{ start: pre, end: pre + am.length, lines: bm }];
  const hunks: LineHunk[] = [];
  let cur: LineHunk | undefined;
  let i = pre;
  for (const part of diffArrays(am, bm)) {
    const n = part.count ?? part.value.length;
    if (!part.added && !part.removed) {
      if (cur) hunks.push(cur);
      cur = undefined;
      i += n;
      continue;
    }
    cur ??= { start: i, end: i, lines: [] };
    if (part.removed) {
      i += n;
      cur.end = i;
    } else cur.lines.push(...part.value);
  }
  if (cur) hunks.push(cur);
  return hunks;
}

/** Hunks between two texts, by line. */
export function diffText(a: string, b: string): LineHunk[] {
  return diffLines(splitLines(a), splitLines(b));
}
