/**
 * What a turn did, for other tools (#35 item 4: `acp-threads events`, the extension's API, hooks): folded from a
 * session's events as they stream, handed out at the turn's end. The files it edited (completed edit tool
 * calls), the tokens the agent reported for it, the cost it reported during it (the cumulative usage_update
 * figures turned into this turn's delta, as the usage ledger does) and how full its context was. Reported numbers
 * only: nothing is guessed.
 */
import type { RuntimeEvent } from "../model/events";
import type { TurnUsage } from "../model/usage";
import { UsageMeter } from "../usage/meter";
import type { UsageCost } from "../usage/usage-query";

export interface TurnUsageReport {
  /** The tokens the agent reported at the turn's end. */
  tokens?: TurnUsage;
  /** What the agent's usage_update said the turn cost, per currency. */
  cost?: UsageCost[];
  /** The context window after the turn (tokens in it, its size). */
  context?: { used: number; size: number };
}

export interface TurnEnd {
  stopReason: string | null;
  filesChanged: string[];
  /** Absent when the agent reported nothing. */
  usage?: TurnUsageReport;
}

export class TurnReport {
  readonly #files = new Set<string>();
  /** The session's usage so far (the status bar's fold); a turn's cost is its difference over the turn. */
  readonly #meter = new UsageMeter();
  #before = new Map<string, number>();
  #context = false;

  /** Folds one event; on the turn's end (`done`) returns what the turn did and starts the next. */
  add(e: RuntimeEvent): TurnEnd | undefined {
    if (e.type === "tool_call" && e.toolCall.kind === "edit" && e.toolCall.status === "completed")
      for (const l of e.toolCall.locations) this.#files.add(l.path);
    if (e.type === "usage") this.#context = true;
    this.#meter.add(e);
    if (e.type !== "done") return undefined;
    const r = this.#meter.reading;
    const cost = r.costs
      .map((c) => ({ currency: c.currency, amount: round(c.amount - (this.#before.get(c.currency) ?? 0)) }))
      .filter((c) => c.amount !== 0);
    const usage: TurnUsageReport = {
      ...(e.usage ? { tokens: e.usage } : {}),
      ...(cost.length ? { cost } : {}),
      ...(this.#context && r.contextUsed !== null && r.contextSize !== null
        ? { context: { used: r.contextUsed, size: r.contextSize } }
        : {}),
    };
    const end: TurnEnd = {
      stopReason: e.stopReason,
      filesChanged: [...this.#files],
      ...(Object.keys(usage).length ? { usage } : {}),
    };
    this.#next();
    return end;
  }

  /** The turn ended in an error (no `done`): the files it edited, stop reason `error`; the next turn starts. */
  failed(): TurnEnd {
    const end: TurnEnd = { stopReason: "error", filesChanged: [...this.#files] };
    this.#next();
    return end;
  }

  #next(): void {
    this.#files.clear();
    this.#before = new Map(this.#meter.reading.costs.map((c) => [c.currency, c.amount]));
    this.#context = false;
  }
}

const round = (n: number) => Math.round(n * 1e9) / 1e9;
