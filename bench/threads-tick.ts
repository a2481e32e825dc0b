/**
 * A minute of a working session in the Sessions view at history scale (#36): the extension host's side of the
 * view's 5 s tick, as the tree does it now (sessions-ticks.ts: the Live group's rows each tick, every top-level
 * group's rows on show once a minute, from the last listing) and, as the same run's baseline, as it did before
 * stop 38 (the root refreshed each tick: every thread listed again, grouped, and the rows on show drawn). Drawing a
 * row is its description's time (`age`/`elapsed`, what getTreeItem computes); the renderer's side is not in it.
 * Figures only.
 */
import { PastThreads } from "../src/vscode/past-threads";
import { page, pastGroups } from "../src/vscode/sessions-groups";
import type { PastThreadSummary, SessionsFilter } from "../src/vscode/sessions-tree";
import { AGE_TICKS, tickRefresh } from "../src/vscode/sessions-ticks";
import { age, elapsed } from "../src/vscode/time-format";
import type { ThreadStore } from "../src/core/store/thread-store";

type Row = { type: "past"; thread: PastThreadSummary } | { type: "live"; startedAt: number };
type Top = { id: string; expanded: boolean; children: Row[] };

/** The tree's top-level groups from a listing: the Live group (one working session), then the day/month groups. */
async function listTop(past: PastThreads, filter: SessionsFilter, startedAt: number): Promise<Top[]> {
  const groups = pastGroups(await past.list(filter), (s) => s.updatedAt);
  return [
    { id: "live", expanded: true, children: [{ type: "live", startedAt }] },
    ...groups.map((g) => ({
      id: g.id,
      expanded: g.expanded,
      children: g.items.map((thread): Row => ({ type: "past", thread })),
    })),
  ];
}

/** VS Code redrawing `group`: its rows on show (a page when open, none when closed), each row's time. */
function draw(group: Top): number {
  if (!group.expanded) return 0;
  let n = 0;
  for (const row of page(group.children).rows)
    n += (row.type === "past" ? age(row.thread.updatedAt) : elapsed(Date.now() - row.startedAt)).length;
  return n;
}

/** One minute of ticks as the tree does it now (a listing before it, as VS Code's last): ms. */
function minuteNow(top: Top[]): number {
  const t = performance.now();
  for (let n = 1; n <= AGE_TICKS; n++) {
    const nodes = tickRefresh(top, (g) => g.id, { n, working: true, dayChanged: false });
    for (const g of nodes === "root" ? top : nodes) draw(g);
  }
  return performance.now() - t;
}

/** One minute of ticks as before (each the root: every thread listed again, every open group drawn): ms. */
async function minuteBefore(past: PastThreads, filter: SessionsFilter, startedAt: number): Promise<number> {
  let ms = 0;
  for (let n = 1; n <= AGE_TICKS; n++) {
    const t = performance.now();
    for (const g of await listTop(past, filter, startedAt)) draw(g);
    ms += performance.now() - t;
  }
  return ms;
}

const median = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]!;

export async function benchTick(store: ThreadStore, worker: string): Promise<{ name: string; ms: number }[]> {
  const past = new PastThreads(store, undefined, { catalogWorker: worker });
  try {
    const filter: SessionsFilter = { cwds: [] };
    const total = (await past.catalog.list()).length; // every row in
    const startedAt = Date.now();
    const now: number[] = [];
    const before: number[] = [];
    for (let round = 0; round < 3; round++) {
      now.push(minuteNow(await listTop(past, filter, startedAt)));
      before.push(await minuteBefore(past, filter, startedAt));
    }
    return [
      {
        name: `a minute of a working session at ${total} threads (12 ticks), host thread, median of 3`,
        ms: median(now),
      },
      { name: "  baseline: each tick refreshing the root (before), median of 3", ms: median(before) },
    ];
  } finally {
    past.dispose();
  }
}
