/**
 * What the Sessions view's 5 s tick refreshes (#36). A refresh of the tree's root lists every thread again (at
 * 10,000 threads 80–110 ms of the extension host's thread under load), so the tick refreshes the top-level nodes
 * whose rows show a time instead: VS Code then asks for those nodes' rows alone (a page each), from the last
 * listing. The root only when the day changed (the day groups move). Pure: no vscode.
 */

/** Between two ticks. */
export const TICK_MS = 5_000;
/** Ticks between two refreshes of every row's age ("5m": 60 s, the ages are in minutes at best). */
export const AGE_TICKS = 12;
/** Top-level groups whose rows show running times (a live session's elapsed): redrawn each tick while one works. */
const RUNNING = new Set(["live", "worktrees"]);

export interface Tick {
  /** The tick's number (1, 2, …). */
  n: number;
  /** A session's turn or an exec run is going on (its elapsed time moves). */
  working: boolean;
  /** The local day is no longer the last listing's. */
  dayChanged: boolean;
}

/**
 * The top-level nodes (`top`, the last listing's, `keyOf` their ids) the tick refreshes, "root" to list again.
 * Every minute all of them (the ages of past rows), or the root after midnight; in between, while something
 * works, the Live and Worktrees groups; else none.
 */
export function tickRefresh<N>(top: readonly N[], keyOf: (node: N) => string, tick: Tick): N[] | "root" {
  if (tick.n % AGE_TICKS === 0) return tick.dayChanged ? "root" : [...top];
  return tick.working ? top.filter((node) => RUNNING.has(keyOf(node))) : [];
}

/** The local day of `now` ("2026-11-29"): a listing's day, to tell when the day groups move. */
export function localDay(now = new Date()): string {
  return `${now.getFullYear()}-${now.getMonth() + 1}-${now.getDate()}`;
}
