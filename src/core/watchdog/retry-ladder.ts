/**
 * The retry ladder for a stuck thread, one rung at a time, each rung only when it applies:
 *   cancel   — `session/cancel` the running turn (and wait a little for it to wind down);
 *   continue — prompt "continue" in the same agent session (after the provider's Retry-After, or a backoff,
 *              when the model API throttled); a still-running turn is cancelled first;
 *   restart  — stop the agent process, start a new one and reopen the session (session/load → session/resume →
 *              new session seeded from the thread), then prompt "continue" if the trouble came mid-turn.
 * A healthy turn end puts the ladder back at the bottom. The host supplies the actions (`LadderTarget`).
 */
import { RETRY_STEPS, type RetryStep, type WatchdogAlert } from "../model/watchdog";

export const CONTINUE_PROMPT = "continue";
/** Waits before re-prompting after a throttle without a Retry-After, by attempt. */
export const THROTTLE_BACKOFF_MS = [10_000, 30_000, 60_000];
export const CANCEL_GRACE_MS = 5_000;

export interface LadderTarget {
  /** Whether a turn is running now. */
  turnRunning(): boolean;
  /** Whether the agent process is alive (false after it died). */
  agentAlive(): boolean;
  cancel(): Promise<void>;
  /** Resolves when no turn is running (at once when none is). */
  turnEnded(): Promise<void>;
  /** Starts a turn with `text` (resolves when it is sent, not when it ends). */
  prompt(text: string): Promise<void>;
  /** Stops the agent and reopens the session in a new process; resolves with how (load, resume, seeded, new). */
  restart(): Promise<string>;
}

export interface LadderOptions {
  continueText?: string;
  cancelGraceMs?: number;
  backoffMs?: readonly number[];
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const sleepFor = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });

export class RetryLadder {
  /** Index of the lowest rung not taken yet for the current trouble. */
  #level = 0;
  #throttles = 0;
  readonly #opts: Required<LadderOptions>;

  constructor(
    private readonly target: LadderTarget,
    opts: LadderOptions = {},
  ) {
    this.#opts = {
      continueText: opts.continueText ?? CONTINUE_PROMPT,
      cancelGraceMs: opts.cancelGraceMs ?? CANCEL_GRACE_MS,
      backoffMs: opts.backoffMs ?? THROTTLE_BACKOFF_MS,
      sleep: opts.sleep ?? sleepFor,
    };
  }

  get level(): number {
    return this.#level;
  }

  /** Back to the bottom rung (a turn ended cleanly). */
  reset(): void {
    this.#level = 0;
    this.#throttles = 0;
  }

  /** The rung the ladder would take now, or undefined when it is exhausted. */
  next(): RetryStep | undefined {
    for (let i = this.#level; i < RETRY_STEPS.length; i++) {
      const step = RETRY_STEPS[i]!;
      if (step === "cancel" && !this.target.turnRunning()) continue;
      if (step === "continue" && !this.target.agentAlive()) continue;
      return step;
    }
    return undefined;
  }

  /** How long `continue` would wait first for this alert (0 unless the API throttled). */
  waitFor(alert: WatchdogAlert | undefined): number {
    if (!alert || (alert.kind !== "rate_limited" && alert.kind !== "overloaded")) return 0;
    if (alert.retryAfterMs !== undefined) return alert.retryAfterMs;
    const b = this.#opts.backoffMs;
    return b[Math.min(this.#throttles, b.length - 1)] ?? 0;
  }

  /**
   * Takes `step` (default: the next rung) and climbs past it. Returns the step taken and, for restart, how the
   * session was reopened. Throws what the action throws (the ladder still climbs: the same rung is not retried).
   */
  async climb(
    alert: WatchdogAlert | undefined,
    step: RetryStep | undefined = this.next(),
    signal?: AbortSignal,
  ): Promise<{ step: RetryStep; reopened?: string } | undefined> {
    if (!step) return undefined;
    this.#level = Math.max(this.#level, RETRY_STEPS.indexOf(step) + 1);
    const t = this.target;
    switch (step) {
      case "cancel":
        await this.#cancel();
        return { step };
      case "continue": {
        if (t.turnRunning()) await this.#cancel();
        const wait = this.waitFor(alert);
        if (wait > 0) {
          if (alert?.retryAfterMs === undefined) this.#throttles++; // the backoff grows only when it is ours
          await this.#opts.sleep(wait, signal);
        }
        if (signal?.aborted) return { step };
        await t.prompt(this.#opts.continueText);
        return { step };
      }
      case "restart": {
        if (t.turnRunning()) await this.#cancel();
        const reopened = await t.restart();
        // an agent that died between turns has no work to pick up: reopening is all
        if (!signal?.aborted && (alert?.turnRunning ?? true)) await t.prompt(this.#opts.continueText);
        return { step, reopened };
      }
    }
  }

  async #cancel(): Promise<void> {
    await this.target.cancel();
    await Promise.race([this.target.turnEnded(), this.#opts.sleep(this.#opts.cancelGraceMs)]);
  }
}
