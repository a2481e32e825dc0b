/**
 * Sums over the usage index: per local day, agent, model or thread, optionally since/until a time or for one
 * thread. Costs stay per currency (agents report USD, credits, ...): they are never converted or added across.
 */
import { ZERO_TOKENS, type TokenCounts } from "./ledger";
import { USAGE_GROUPS, type UsageGroup } from "./groups";
import type { UsageIndex } from "./usage-index";

export { USAGE_GROUPS, type UsageGroup };

export interface UsageQuery {
  by: UsageGroup;
  /** Milliseconds since the epoch (inclusive). */
  since?: number;
  until?: number;
  threadId?: string;
  agent?: string;
}

export interface UsageCost {
  currency: string;
  amount: number;
}

export interface UsageRow extends TokenCounts {
  /** The local date (YYYY-MM-DD), agent id, model (or "(unknown)") or thread id. */
  key: string;
  /** Display label: the agent's name for `agent`, else the key. */
  label: string;
  /** Turns that reported token usage. */
  turns: number;
  costs: UsageCost[];
  /** Largest context the agent reported (tokens in context / window size). */
  contextUsed: number | null;
  contextSize: number | null;
  firstAt: number;
  lastAt: number;
}

export interface UsageReport {
  by: UsageGroup;
  since: number | null;
  until: number | null;
  rows: UsageRow[];
  total: Omit<UsageRow, "key" | "label">;
}

/** Entries are bucketed per quarter hour in SQL (every real time zone offset is a multiple of 15 minutes). */
const BUCKET_MS = 15 * 60 * 1000;

const localDay = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};

interface Raw {
  g: string | number;
  label: string | null;
  turns: number;
  input: number;
  output: number;
  thought: number;
  cache_read: number;
  cache_write: number;
  total: number;
  ctx_used: number | null;
  ctx_size: number | null;
  first_at: number;
  last_at: number;
}

const GROUP_SQL: Record<UsageGroup, string> = {
  day: `CAST(at / ${BUCKET_MS} AS INTEGER)`,
  agent: "agent_id",
  model: "COALESCE(model, '(unknown)')",
  thread: "thread_id",
};

function emptyRow(key: string, label: string): UsageRow {
  return {
    key,
    label,
    turns: 0,
    ...ZERO_TOKENS,
    costs: [],
    contextUsed: null,
    contextSize: null,
    firstAt: Number.POSITIVE_INFINITY,
    lastAt: 0,
  };
}

function addCost(costs: UsageCost[], currency: string, amount: number): void {
  const c = costs.find((x) => x.currency === currency);
  if (c) c.amount = Math.round((c.amount + amount) * 1e9) / 1e9;
  else costs.push({ currency, amount: Math.round(amount * 1e9) / 1e9 });
}

function merge(into: Omit<UsageRow, "key" | "label">, r: Raw): void {
  into.turns += r.turns;
  into.inputTokens += r.input;
  into.outputTokens += r.output;
  into.thoughtTokens += r.thought;
  into.cachedReadTokens += r.cache_read;
  into.cachedWriteTokens += r.cache_write;
  into.totalTokens += r.total;
  if (r.ctx_used !== null && (into.contextUsed === null || r.ctx_used > into.contextUsed)) {
    into.contextUsed = r.ctx_used;
    into.contextSize = r.ctx_size;
  }
  into.firstAt = Math.min(into.firstAt, r.first_at);
  into.lastAt = Math.max(into.lastAt, r.last_at);
}

export function queryUsage(index: UsageIndex, q: UsageQuery): UsageReport {
  const where: string[] = [];
  const params: Record<string, string | number> = {};
  const add = (sql: string, name: string, value: string | number | undefined) => {
    if (value === undefined || value === "") return;
    where.push(sql);
    params[name] = value;
  };
  add("at >= :since", ":since", q.since);
  add("at < :until", ":until", q.until);
  add("thread_id = :thread", ":thread", q.threadId);
  add("(agent_id = :agent OR agent_name = :agent)", ":agent", q.agent);
  const filter = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const g = GROUP_SQL[q.by];
  const keyOf = (raw: string | number): string => (q.by === "day" ? localDay(Number(raw) * BUCKET_MS) : String(raw));
  const { sums, costs } = index.db.read(() => ({
    sums: index.db.all<Raw>(
      `SELECT ${g} AS g, MAX(agent_name) AS label, SUM(turns) AS turns, SUM(input) AS input,
        SUM(output) AS output, SUM(thought) AS thought, SUM(cache_read) AS cache_read, SUM(cache_write) AS cache_write,
        SUM(total) AS total, MAX(ctx_used) AS ctx_used, MAX(ctx_size) AS ctx_size, MIN(at) AS first_at, MAX(at) AS last_at
       FROM entries ${filter} GROUP BY g`,
      params,
    ),
    costs: index.db.all<{ g: string | number; currency: string; amount: number }>(
      `SELECT ${g} AS g, currency, SUM(cost) AS amount FROM entries ${filter}
       ${filter ? "AND" : "WHERE"} cost IS NOT NULL AND currency IS NOT NULL GROUP BY g, currency`,
      params,
    ),
  }));
  const rows = new Map<string, UsageRow>();
  const total = emptyRow("", "");
  for (const r of sums) {
    const key = keyOf(r.g);
    const label = q.by === "agent" ? (r.label ?? key) : key;
    const row = rows.get(key) ?? emptyRow(key, label);
    merge(row, r);
    merge(total, r);
    rows.set(key, row);
  }
  for (const c of costs) {
    addCost(rows.get(keyOf(c.g))!.costs, c.currency, c.amount);
    addCost(total.costs, c.currency, c.amount);
  }
  const { key: _k, label: _l, ...totals } = total;
  if (!rows.size) totals.firstAt = 0;
  const sorted = [...rows.values()].sort((a, b) =>
    q.by === "day" ? (a.key < b.key ? 1 : -1) : b.totalTokens - a.totalTokens || b.lastAt - a.lastAt,
  );
  return { by: q.by, since: q.since ?? null, until: q.until ?? null, rows: sorted, total: totals };
}
