/**
 * The usage of one live session, folded from its events as they stream (the status-bar figure): tokens the agent
 * reported per turn, the cost it reported (its cumulative figure turned into deltas; a restarted agent starts
 * from zero again), and how full its context is. Same rules as the ledger: reported numbers only.
 */
import type { RuntimeEvent } from "../model/events";
import { CostTracker } from "./ledger";
import type { UsageCost } from "./usage-query";

export interface MeterReading {
  turns: number;
  /** Turns whose agent reported tokens, and their sum. */
  tokens: number;
  tokensReported: boolean;
  costs: UsageCost[];
  contextUsed: number | null;
  contextSize: number | null;
}

export class UsageMeter {
  readonly #costs = new CostTracker();
  readonly #spent = new Map<string, number>();
  #turns = 0;
  #tokens = 0;
  #tokensReported = false;
  #context: { used: number; size: number } | undefined;

  add(e: RuntimeEvent): boolean {
    if (e.type === "usage") {
      this.#context = { used: e.used, size: e.size };
      if (e.cost && Number.isFinite(e.cost.amount)) {
        const d = this.#costs.delta(e.cost.currency, e.cost.amount);
        this.#spent.set(e.cost.currency, (this.#spent.get(e.cost.currency) ?? 0) + d);
      }
      return true;
    }
    if (e.type === "done") {
      this.#turns++;
      if (e.usage) {
        this.#tokens += e.usage.totalTokens;
        this.#tokensReported = true;
      }
      return true;
    }
    return false;
  }

  get reading(): MeterReading {
    return {
      turns: this.#turns,
      tokens: this.#tokens,
      tokensReported: this.#tokensReported,
      costs: [...this.#spent].map(([currency, amount]) => ({ currency, amount: Math.round(amount * 1e9) / 1e9 })),
      contextUsed: this.#context?.used ?? null,
      contextSize: this.#context?.size ?? null,
    };
  }
}
