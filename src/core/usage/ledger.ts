/**
 * The usage ledger, derived from a thread's records: one entry per turn whose agent reported token usage
 * (`turn_end.usage`, split per model when the agent says so) and one per `usage_update` (context size and the
 * agent's cumulative session cost, turned into a delta). Costs are only what agents report, in their currency;
 * nothing is priced here.
 *
 * Cost deltas: ACP's `usage_update.cost` is the cumulative cost of the agent session as the agent process knows
 * it. A `session_open` record (a new connection: restart, load, resume) restarts the baseline; in older threads
 * without one, a cost lower than the last is taken as such a restart too.
 */
import type { ThreadRecord } from "../model/records";

export type LedgerEntryKind = "turn" | "update";

/** Token figures of a turn or a sum of turns (0 where the agent reported nothing). */
export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  thoughtTokens: number;
  cachedReadTokens: number;
  cachedWriteTokens: number;
  totalTokens: number;
}

export interface LedgerEntry extends TokenCounts {
  threadId: string;
  /** Milliseconds since the epoch. */
  at: number;
  agentId: string;
  agentName: string;
  /** The model in use (from the thread's model patches, or the agent's per-model split); null when unknown. */
  model: string | null;
  kind: LedgerEntryKind;
  /** 1 on the entry that counts a turn (the first of a per-model split), else 0. */
  turns: number;
  /** Cost incurred since the previous update of the same agent session; null when the agent reports none. */
  cost: number | null;
  currency: string | null;
  contextUsed: number | null;
  contextSize: number | null;
}

/** Serializable fold state, so an index can continue from where it stopped reading a file. */
export interface LedgerState {
  threadId: string;
  agentId: string;
  agentName: string;
  model: string | null;
  /** Last cumulative cost reported per currency in the current agent session. */
  costBase: Record<string, number>;
}

/** Keeps float noise out of sums of many small deltas (agents report fractions of a cent). */
const roundCost = (n: number): number => Math.round(n * 1e9) / 1e9;

/** Turns a cumulative cost series into deltas; `reset()` at each new agent session. */
export class CostTracker {
  constructor(public base: Record<string, number> = {}) {}

  reset(): void {
    this.base = {};
  }

  delta(currency: string, cumulative: number): number {
    const prev = this.base[currency];
    this.base[currency] = cumulative;
    if (prev === undefined || cumulative < prev) return roundCost(cumulative);
    return roundCost(cumulative - prev);
  }
}

export const ZERO_TOKENS: TokenCounts = {
  inputTokens: 0,
  outputTokens: 0,
  thoughtTokens: 0,
  cachedReadTokens: 0,
  cachedWriteTokens: 0,
  totalTokens: 0,
};

export class LedgerFolder {
  state: LedgerState | undefined;
  readonly #costs: CostTracker;

  constructor(state?: LedgerState) {
    this.state = state;
    this.#costs = new CostTracker(state?.costBase ?? {});
  }

  /** Folds one record; returns the entries it produces (none for most kinds). */
  add(r: ThreadRecord): LedgerEntry[] {
    if (r.kind === "thread_start") {
      this.state ??= { threadId: r.threadId, agentId: r.agent.id, agentName: r.agent.name, model: null, costBase: {} };
      return [];
    }
    const s = this.state;
    if (!s) return [];
    const at = Date.parse(r.ts);
    const base = { threadId: s.threadId, at, agentId: s.agentId, agentName: s.agentName, model: s.model };
    switch (r.kind) {
      case "meta_patch":
        if (r.patch.model !== undefined) s.model = r.patch.model;
        return [];
      case "session_open":
        this.#costs.reset();
        s.costBase = this.#costs.base;
        return [];
      case "usage": {
        const cost = r.cost && Number.isFinite(r.cost.amount) ? r.cost : null;
        const entry: LedgerEntry = {
          ...base,
          kind: "update",
          turns: 0,
          ...ZERO_TOKENS,
          cost: cost ? this.#costs.delta(cost.currency, cost.amount) : null,
          currency: cost?.currency ?? null,
          contextUsed: r.used,
          contextSize: r.size,
        };
        s.costBase = this.#costs.base;
        return [entry];
      }
      case "turn_end": {
        const u = r.usage;
        if (!u) return [];
        const turn = {
          ...base,
          kind: "turn" as const,
          cost: null,
          currency: null,
          contextUsed: null,
          contextSize: null,
        };
        if (u.byModel?.length) {
          return u.byModel.map((m, i) => ({
            ...turn,
            ...ZERO_TOKENS,
            turns: i === 0 ? 1 : 0,
            model: m.model,
            inputTokens: m.inputTokens,
            outputTokens: m.outputTokens,
            totalTokens: m.inputTokens + m.outputTokens,
          }));
        }
        return [
          {
            ...turn,
            turns: 1,
            inputTokens: u.inputTokens,
            outputTokens: u.outputTokens,
            thoughtTokens: u.thoughtTokens ?? 0,
            cachedReadTokens: u.cachedReadTokens ?? 0,
            cachedWriteTokens: u.cachedWriteTokens ?? 0,
            totalTokens: u.totalTokens,
          },
        ];
      }
      default:
        return [];
    }
  }
}

/** Every ledger entry of a whole thread. */
export function ledgerOf(records: Iterable<ThreadRecord>): LedgerEntry[] {
  const folder = new LedgerFolder();
  const out: LedgerEntry[] = [];
  for (const r of records) out.push(...folder.add(r));
  return out;
}
