/**
 * Scrolling the Sessions view through a whole history (#36: "scrolling through 10k rows without a stall"): the
 * extension host's side of each step, as the tree does it (sessions-tree.ts `getChildren`): the past threads
 * listed (`PastThreads.list`, from the catalog in memory), grouped by day/month, each group's nodes, and the rows
 * on show of every open group (a page more per "Show more"). The walk opens every group in turn and shows more
 * until every row is on show; each step is timed. Baseline in the same run: one step that hands every row at
 * once (a tree without pages). The renderer's side (drawing the rows) is not in it. Figures only.
 */
import type { ThreadStore } from "../src/core/store/thread-store";
import { PastThreads } from "../src/vscode/past-threads";
import { page, pastGroups, PAGE } from "../src/vscode/sessions-groups";
import type { PastThreadSummary, SessionsFilter } from "../src/vscode/sessions-tree";

/** A step longer than this is a stall (the web's long-task threshold). */
const LONG_TASK_MS = 50;

/** One refresh of the tree with `shown` rows on show per open group (undefined: closed): rows handed, ms. */
async function step(past: PastThreads, filter: SessionsFilter, shown: Map<string, number>) {
  const t = performance.now();
  const listed = await past.list(filter);
  let rows = 0;
  for (const g of pastGroups(listed, (s: PastThreadSummary) => s.updatedAt)) {
    const children = g.items.map((thread) => ({ type: "past" as const, thread }));
    const n = shown.get(g.id) ?? (g.expanded ? PAGE : 0);
    if (n) rows += page(children, n).rows.length;
  }
  return { rows, ms: performance.now() - t };
}

export async function benchScroll(store: ThreadStore, worker: string): Promise<{ name: string; ms: number }[]> {
  const past = new PastThreads(store, undefined, { catalogWorker: worker });
  try {
    const filter: SessionsFilter = { cwds: [] };
    const total = (await past.catalog.list()).length; // every row in
    const groups = pastGroups(await past.list(filter), (s) => s.updatedAt);
    const shown = new Map<string, number>();
    const steps: number[] = [];
    let rows = 0;
    for (const g of groups)
      for (let n = g.expanded ? PAGE * 2 : PAGE; ; n += PAGE) {
        shown.set(g.id, n); // opening a closed group, or "Show more" on an open one
        const s = await step(past, filter, shown);
        steps.push(s.ms);
        rows = s.rows;
        if (n >= g.items.length) break;
      }
    const all = new Map(groups.map((g) => [g.id, g.items.length]));
    const flat = await step(past, filter, all);
    const sorted = [...steps].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    const long = steps.filter((ms) => ms > LONG_TASK_MS).length;
    return [
      {
        name: `scroll ${total} threads, ${groups.length} groups: ${steps.length} steps to ${rows} rows on show`,
        ms: 0,
      },
      { name: "  a step (open a group / Show more), median", ms: at(0.5) },
      { name: "  a step, 95th percentile", ms: at(0.95) },
      { name: `  a step, the longest (${long} of ${steps.length} over ${LONG_TASK_MS} ms)`, ms: sorted.at(-1)! },
      { name: `  baseline: every row handed at once, no pages (${flat.rows} rows)`, ms: flat.ms },
    ];
  } finally {
    past.dispose();
  }
}
