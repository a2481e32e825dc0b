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

/** `items` (most recent first) in day groups for the last `DAY_GROUPS` days, then month groups. */
export function pastGroups<T>(items: T[], updatedAt: (t: T) => string, now = new Date()): PastGroup<T>[] {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (DAY_GROUPS - 1)).getTime();
  const groups: PastGroup<T>[] = [];
  let last: PastGroup<T> | undefined;
  for (const t of items) {
    const iso = updatedAt(t);
    const d = new Date(iso);
    const recent = d.getTime() >= start;
    const id = recent
      ? `day:${dayLabel(iso, now)}`
      : `month:${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}`;
    if (last?.id !== id) {
      last = groups.find((g) => g.id === id);
      if (!last) {
        const label = recent ? dayLabel(iso, now) : `${MONTHS[d.getMonth()]} ${d.getFullYear()}`;
        last = { id, label, expanded: recent, items: [] };
        groups.push(last);
      }
    }
    last.items.push(t);
  }
  return groups;
}

/** The rows of a group on show: the first `shown` (default one page), and how many are left for "Show more". */
export function page<T>(items: T[], shown = PAGE): { rows: T[]; left: number } {
  return { rows: items.slice(0, shown), left: Math.max(0, items.length - shown) };
}
