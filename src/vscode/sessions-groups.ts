/**
 * The Sessions view's past threads at the size real histories reach (#36): the last week by day (expanded), older
 * threads by month (collapsed: VS Code asks for their rows only when opened), and a group shows its rows a page
 * at a time ("Show more"), so 10,000 threads never become 10,000 tree items at once. Pure: no vscode.
 */
import { dayLabel } from "./time-format";

/** Rows a group shows before "Show more" (and how many each "Show more" adds). */
export const PAGE = 100;
/** Days shown one group each; older threads group by month. */
export const DAY_GROUPS = 7;

export interface PastGroup<T> {
  id: string;
  label: string;
  /** Opened at first (the recent days) or closed (the months). */
  expanded: boolean;
  items: T[];
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** The group of a thread last active at `iso`: its day among the last `DAY_GROUPS` days, else its month. */
function groupOf(iso: string, now: Date): { id: string; label: string; recent: boolean } {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (DAY_GROUPS - 1)).getTime();
  const d = new Date(iso);
  if (d.getTime() >= start) return { id: `day:${dayLabel(iso, now)}`, label: dayLabel(iso, now), recent: true };
  const month = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}`;
  return { id: `month:${month}`, label: `${MONTHS[d.getMonth()]} ${d.getFullYear()}`, recent: false };
}

/** `items` (most recent first) in day groups for the last `DAY_GROUPS` days, then month groups. */
export function pastGroups<T>(items: T[], updatedAt: (t: T) => string, now = new Date()): PastGroup<T>[] {
  const groups: PastGroup<T>[] = [];
  let last: PastGroup<T> | undefined;
  for (const t of items) {
    const g = groupOf(updatedAt(t), now);
    if (last?.id !== g.id) {
      last = groups.find((x) => x.id === g.id);
      if (!last) {
        last = { id: g.id, label: g.label, expanded: g.recent, items: [] };
        groups.push(last);
      }
    }
    last.items.push(t);
  }
  return groups;
}

/**
 * What a first paint shows of `items` (most recent first) while threads last active at or before `partialBefore`
 * may still be missing (their rows on their way): the items of the groups wholly after it. The group it falls in
 * would show too few rows and a wrong count: it comes, whole, with the others (#36).
 */
export function wholeGroups<T>(
  items: T[],
  updatedAt: (t: T) => string,
  partialBefore: string | undefined,
  now = new Date(),
): T[] {
  if (partialBefore === undefined) return items;
  const cut = groupOf(partialBefore, now).id;
  const end = items.findIndex((t) => updatedAt(t) <= partialBefore || groupOf(updatedAt(t), now).id === cut);
  return end < 0 ? items : items.slice(0, end);
}

/** The rows of a group on show: the first `shown` (default one page), and how many are left for "Show more". */
export function page<T>(items: T[], shown = PAGE): { rows: T[]; left: number } {
  return { rows: items.slice(0, shown), left: Math.max(0, items.length - shown) };
}
