/**
 * BASELINE ONLY (bench/review.main.ts, test/unit/core/ledger/map-ranges.test.ts): inline review's placement before
 * stop 56 (src/core/ledger/hunks.ts `mapRange`), kept verbatim: each pending hunk diffed the whole document against
 * the reviewed version again, so a placement cost hunks × a whole-file diff.
 *
 * Where lines [start, end) of `from` are in `to`, if none of them changed in between (for an empty range: the
 * insertion point, if nothing was inserted or removed right there). Undefined when they did change.
 */
import { hunksOf } from "../../src/core/ledger/hunks";

export function mapRangeBefore(
  from: string,
  to: string,
  start: number,
  end: number,
): { start: number; end: number } | undefined {
  let delta = 0;
  for (const h of hunksOf(from, to)) {
    const touches =
      start === end
        ? (h.beforeStart < start && start < h.beforeEnd) || (h.beforeStart === start && h.beforeEnd === start)
        : h.beforeStart < end && start < h.beforeEnd;
    if (touches) return undefined;
    if (h.beforeEnd <= start) delta += h.afterEnd - h.afterStart - (h.beforeEnd - h.beforeStart);
  }
  return { start: start + delta, end: end + delta };
}
