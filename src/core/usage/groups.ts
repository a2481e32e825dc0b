/** What a usage report sums per (usage-query.ts): its rows' key. `acp-threads usage --by` and the usage view offer them. */
export const USAGE_GROUPS = ["day", "agent", "model", "thread"] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];
