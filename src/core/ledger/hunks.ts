/**
 * Line hunks of one recorded change (before → after) and a unified diff of it. Hunk indexes are stable —
 * both versions are immutable blobs — so a review record can name "hunk 2 of turn 3's change to a.ts".
 */
import { diffLines } from "../text/line-diff";
import { splitLines } from "../text/lines";

export interface LineHunk {
  /** 0-based, end-exclusive line ranges in the version before and after. */
  beforeStart: number;
  beforeEnd: number;
  afterStart: number;
  afterEnd: number;
}

export function hunksOf(before: string, after: string): LineHunk[] {
  let delta = 0;
  return diffLines(splitLines(before), splitLines(after)).map((h) => {
    const hunk = {
      beforeStart: h.start,
      beforeEnd: h.end,
      afterStart: h.start + delta,
      afterEnd: h.start + delta + h.lines.length,
    };
    delta += h.lines.length - (h.end - h.start);
    return hunk;
  });
}

/** Lines added and removed by a change. */
export function lineCounts(hunks: readonly LineHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    added += h.afterEnd - h.afterStart;
    removed += h.beforeEnd - h.beforeStart;
  }
  return { added, removed };
}

/** `after` with hunk `h` taken back (its lines replaced by the before lines). */
export function revertHunk(before: string, after: string, h: LineHunk): string {
  const b = splitLines(before);
  const a = splitLines(after);
  return [...a.slice(0, h.afterStart), ...b.slice(h.beforeStart, h.beforeEnd), ...a.slice(h.afterEnd)].join("");
}

/** `before` with only hunk `h` applied (what keeping that one hunk makes of the version before). */
export function applyHunk(before: string, after: string, h: LineHunk): string {
  const b = splitLines(before);
  const a = splitLines(after);
  return [...b.slice(0, h.beforeStart), ...a.slice(h.afterStart, h.afterEnd), ...b.slice(h.beforeEnd)].join("");
}

/** A range of lines, 0-based and end-exclusive. */
export interface LineRange {
  start: number;
  end: number;
}

/**
 * Where lines [start, end) of `from` are in `to`, if none of them changed in between (for an empty range: the
 * insertion point, if nothing was inserted or removed right there). Undefined when they did change.
 */
export function mapRange(from: string, to: string, start: number, end: number): LineRange | undefined {
  return mapRanges(hunksOf(from, to), [{ start, end }])[0];
}

/**
 * `mapRange` of each of `ranges` through one diff (`hunks`: `hunksOf(from, to)`), in the order given: the diff is
 * the whole document's cost, paid once for every range instead of once per range (inline review places every
 * pending hunk of a file on each keystroke).
 */
export function mapRanges(hunks: readonly LineHunk[], ranges: readonly LineRange[]): (LineRange | undefined)[] {
  // shift[k]: lines added minus removed by hunks[0..k); hunks are disjoint and ordered, so is each hunk's end
  const shift = [0];
  for (const h of hunks) shift.push(shift.at(-1)! + (h.afterEnd - h.afterStart) - (h.beforeEnd - h.beforeStart));
  return ranges.map(({ start, end }) => {
    // k: how many hunks end at or before `start` (they shift the range; the next one may touch it)
    let lo = 0;
    let hi = hunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (hunks[mid]!.beforeEnd <= start) lo = mid + 1;
      else hi = mid;
    }
    const next = hunks[lo];
    const prev = hunks[lo - 1];
    const touches =
      start === end
        ? (next !== undefined && next.beforeStart < start) ||
          (prev !== undefined && prev.beforeStart === start && prev.beforeEnd === start)
        : next !== undefined && next.beforeStart < end;
    return touches ? undefined : { start: start + shift[lo]!, end: end + shift[lo]! };
  });
}

const CONTEXT = 3;

/**
 * A unified diff (`git apply` reads it) of one file. `null` = the file does not exist on that side. A file whose
 * content is not kept gets a one-line note instead of hunks.
 */
export function unifiedDiff(rel: string, before: string | null, after: string | null, note?: string): string {
  const head = [
    `diff --git a/${rel} b/${rel}`,
    ...(before === null ? ["new file mode 100644"] : after === null ? ["deleted file mode 100644"] : []),
  ];
  if (note) return [...head, `# ${note}`, ""].join("\n");
  const a = splitLines(before ?? "");
  const b = splitLines(after ?? "");
  const hunks = hunksOf(before ?? "", after ?? "");
  if (!hunks.length) return "";
  const out = [
    ...head,
    `--- ${before === null ? "/dev/null" : `a/${rel}`}`,
    `+++ ${after === null ? "/dev/null" : `b/${rel}`}`,
  ];
  // group hunks whose context overlaps
  const groups: LineHunk[][] = [];
  for (const h of hunks) {
    const last = groups.at(-1)?.at(-1);
    if (last && h.beforeStart - last.beforeEnd <= 2 * CONTEXT) groups.at(-1)!.push(h);
    else groups.push([h]);
  }
  const line = (prefix: string, l: string) => prefix + (l.endsWith("\n") ? l : `${l}\n\\ No newline at end of file\n`);
  for (const g of groups) {
    const first = g[0];
    const last = g[g.length - 1];
    const bs = Math.max(0, first.beforeStart - CONTEXT);
    const be = Math.min(a.length, last.beforeEnd + CONTEXT);
    const as = first.afterStart - (first.beforeStart - bs);
    const ae = last.afterEnd + (be - last.beforeEnd);
    const range = (s: number, n: number) => (n === 0 ? `${s},0` : n === 1 ? `${s + 1}` : `${s + 1},${n}`);
    let body = "";
    let i = bs;
    for (const h of g) {
      for (; i < h.beforeStart; i++) body += line(" ", a[i]);
      for (let k = h.beforeStart; k < h.beforeEnd; k++) body += line("-", a[k]);
      for (let k = h.afterStart; k < h.afterEnd; k++) body += line("+", b[k]);
      i = h.beforeEnd;
    }
    for (; i < be; i++) body += line(" ", a[i]);
    out.push(`@@ -${range(bs, be - bs)} +${range(as, ae - as)} @@`);
    out.push(body.replace(/\n$/, ""));
  }
  return out.join("\n") + "\n";
}
