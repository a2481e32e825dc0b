/**
 * Scrolling the Sessions view through a whole history (#36: "scrolling through 10k rows without a stall"): the
 * extension host's side of each step as the tree does it (sessions-tree.ts `getChildren`). The walk opens every
 * group in turn and shows more until every row is on show; each step (VS Code asking for the opened group's
 * rows: a page more each) is timed. Baseline in the same run, the same walk as the tree did it before stop 37:
 * each "Show more" a relisting (`PastThreads.list` from the catalog in memory, grouped by day/month, each open
 * group's rows on show). The renderer's side (drawing the rows) is not in it. Figures only.
 */
import type { ThreadStore } from "../src/core/store/thread-store";
import { PastThreads } from "../src/vscode/past-threads";
import { page, pastGroups, PAGE } from "../src/vscode/sessions-groups";
import type { PastThreadSummary, SessionsFilter } from "../src/vscode/sessions-tree";

/** A step longer than this is a stall (the web's long-task threshold). */
const LONG_TASK_MS = 50;

/** The tree listed again with `shown` rows on show per open group (undefined: closed): ms. */
async function relist(past: PastThreads, filter: SessionsFilter, shown: Map<string, number>): Promise<number> {
  const t = performance.now();
  const listed = await past.list(filter);
  for (const g of pastGroups(listed, (s: PastThreadSummary) => s.updatedAt)) {
    const children = g.items.map((thread) => ({ type: "past" as const, thread }));
    const n = shown.get(g.id) ?? (g.expanded ? PAGE : 0);
    if (n) page(children, n);
  }
  return performance.now() - t;
}

/** One group's rows on show and its "Show more" (getChildren of the group): ms. */
function groupRows(children: { type: "past"; thread: PastThreadSummary }[], n: number): number {
  const t = performance.now();
  const { rows, left } = page(children, n);
  void (left ? [...rows, { type: "more", left }] : rows);
  return performance.now() - t;
}

/** Median, 95th percentile, longest, and how many are over `LONG_TASK_MS`. */
function spread(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), p95: at(0.95), max: sorted.at(-1)!, long: ms.filter((x) => x > LONG_TASK_MS).length };
}

export async function benchScroll(store: ThreadStore, worker: string): Promise<{ name: string; ms: number }[]> {
  const past = new PastThreads(store, undefined, { catalogWorker: worker });
  try {
    const filter: SessionsFilter = { cwds: [] };
    const total = (await past.catalog.list()).length; // every row in
    const groups = pastGroups(await past.list(filter), (s) => s.updatedAt);
    const shown = new Map<string, number>();
    const steps: number[] = [];
    const before: number[] = [];
    let rows = 0;
    for (const g of groups) {
      const children = g.items.map((thread) => ({ type: "past" as const, thread }));
      for (let n = g.expanded ? PAGE * 2 : PAGE; ; n += PAGE) {
        shown.set(g.id, n); // opening a closed group, or "Show more" on an open one
        steps.push(groupRows(children, n));
        if (n > PAGE || g.expanded) before.push(await relist(past, filter, shown)); // "Show more" relisted
        if (n >= g.items.length) break;
      }
      rows += g.items.length;
    }
    const after = spread(steps);
    const was = spread(before);
    return [
      {
        name: `scroll ${total} threads, ${groups.length} groups: ${steps.length} steps to ${rows} rows on show, in all`,
        ms: steps.reduce((a, b) => a + b, 0),
      },
      { name: "  a step (open a group / Show more: the group's rows), median", ms: after.median },
      { name: "  a step, 95th percentile", ms: after.p95 },
      { name: `  a step, the longest (${after.long} of ${steps.length} over ${LONG_TASK_MS} ms)`, ms: after.max },
      { name: `  baseline: "Show more" relisting every thread (before), median`, ms: was.median },
      { name: `  baseline, the longest (${was.long} of ${before.length} over ${LONG_TASK_MS} ms)`, ms: was.max },
    ];
  } finally {
    past.dispose();
  }
}
