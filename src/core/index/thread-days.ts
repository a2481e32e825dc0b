/** A thread listing grouped by day (`threads list`, `threads archive --dry-run`): pure, over plain rows. */
import type { IndexedThread } from "../model/thread-list";

/** Groups threads (already sorted most recent first) by local calendar day of their last activity. */
export function groupByDay(threads: IndexedThread[]): { day: string; threads: IndexedThread[] }[] {
  const groups: { day: string; threads: IndexedThread[] }[] = [];
  for (const t of threads) {
    const d = new Date(t.lastActivity);
    const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    const last = groups[groups.length - 1];
    if (last?.day === day) last.threads.push(t);
    else groups.push({ day, threads: [t] });
  }
  return groups;
}
