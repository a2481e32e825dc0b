/**
 * Joins a thread's watchdog and its retry ladder: the host feeds the watchdog, the supervisor publishes what
 * is wrong and what it would do next (the panel and the tree show it), takes a rung when asked (`retry`), and
 * in `auto` mode climbs by itself: after a stall it cancels and re-prompts right away, after a throttle it waits
 * as the provider asked, after a death it restarts; if the re-prompted turn gets stuck again it climbs higher,
 * and once the ladder is exhausted it stops and leaves the alert for a person.
 */
import { errorMessage } from "../errors";
import { Emitter, type Disposable } from "../lifecycle";
import { CONTINUE_PROMPT, RetryLadder, type LadderOptions, type LadderTarget } from "./retry-ladder";
import { TurnWatchdog, type WatchdogClock } from "./turn-watchdog";
import { background } from "../util/unexpected";
import type { RetryMode, RetryStep, SupervisorState, WatchdogAlert, WatchdogSettings } from "../model/watchdog";

export interface SupervisorOptions extends LadderOptions, WatchdogSettings {
  clock?: WatchdogClock;
}

export class Supervisor implements Disposable {
  readonly watchdog: TurnWatchdog;
  readonly #ladder: RetryLadder;
  readonly #changes = new Emitter<SupervisorState>();
  readonly onState = this.#changes.event;
  #mode: RetryMode;
  readonly #settleMs: number;
  readonly #continueText: string;
  #running: RetryStep | undefined;
  #history: SupervisorState["history"] = [];
  #abort = new AbortController();
  /** The ladder is about to start a turn (continue/restart), and whether the running turn is the ladder's. */
  #expectLadderTurn = false;
  #ladderTurn = false;
  #hollowRetried = false;
  #disposed = false;
  readonly #owned: Disposable[] = [];

  constructor(
    private readonly target: LadderTarget,
    opts: SupervisorOptions = {},
  ) {
    this.watchdog = new TurnWatchdog(opts.stallMs, opts.clock);
    this.#ladder = new RetryLadder(target, opts);
    this.#mode = opts.mode ?? "offer";
    this.#settleMs = opts.settleMs ?? 2_000;
    this.#continueText = opts.continueText ?? CONTINUE_PROMPT;
    this.own(
      this.watchdog.onAlert((alert) => {
        this.#publish();
        if (alert && this.#mode === "auto") background(this.#autoRetry(alert), "retrying a stalled turn");
      }),
    );
  }

  /** Subscriptions that live as long as the supervisor (disposed with it). */
  own(...items: Disposable[]): void {
    if (this.#disposed) for (const d of items) d.dispose();
    else this.#owned.push(...items);
  }

  get state(): SupervisorState {
    const alert = this.watchdog.alert;
    const next = alert && !this.#running ? this.#ladder.next() : undefined;
    return {
      alert,
      next,
      running: this.#running,
      history: [...this.#history],
      exhausted: !!alert && !this.#running && next === undefined,
    };
  }

  get mode(): RetryMode {
    return this.#mode;
  }

  setMode(mode: RetryMode): void {
    this.#mode = mode;
    if (mode === "auto" && this.watchdog.alert) background(this.retry(), "retrying a stalled turn");
  }

  /** A turn starts (the host's own prompt or the ladder's re-prompt). */
  turnStarted(): void {
    this.#ladderTurn = this.#expectLadderTurn;
    this.#expectLadderTurn = false;
    this.watchdog.turnStarted();
  }

  /**
   * A turn ended; a clean end means the trouble is over and the ladder starts from the bottom again. A re-prompt
   * the agent "answers" at once without any work or tokens is asked once more: claude-agent-acp 0.23 ends the
   * first prompt after a cancel that way and only the next one picks the work up.
   */
  turnEnded(stopReason: string | undefined, usage?: { totalTokens: number }): void {
    const hollow =
      this.#ladderTurn && stopReason === "end_turn" && !this.watchdog.produced && (usage?.totalTokens ?? 0) === 0;
    this.#ladderTurn = false;
    this.watchdog.turnEnded(stopReason);
    if (hollow && !this.#hollowRetried && !this.#disposed) {
      this.#hollowRetried = true;
      this.#history.push({ step: "continue", at: Date.now(), outcome: "answered without working: asked again" });
      this.#expectLadderTurn = true;
      void this.target.prompt(this.#continueText).catch(() => undefined);
      return this.#publish();
    }
    if (stopReason === "end_turn" && !this.#running) {
      this.#ladder.reset();
      this.#hollowRetried = false;
      if (this.#history.length) this.#history = [];
    }
    this.#publish();
  }

  /**
   * Takes a rung (default: the next one). Resolves when the rung's action is done (for continue/restart:
   * when the new turn was sent). Never throws: a failed action is recorded in the history.
   */
  async retry(step?: RetryStep): Promise<void> {
    if (this.#running || this.#disposed) return;
    const alert = this.watchdog.alert;
    const chosen = step ?? this.#ladder.next();
    if (!chosen) return this.#publish();
    this.#running = chosen;
    this.#expectLadderTurn = chosen !== "cancel";
    this.#publish();
    let outcome = "done";
    try {
      const r = await this.#ladder.climb(alert, chosen, this.#abort.signal);
      if (r?.reopened) outcome = `reopened by ${r.reopened}`;
    } catch (err) {
      outcome = `failed: ${errorMessage(err)}`;
    }
    this.#running = undefined;
    this.#expectLadderTurn = false;
    this.#history.push({ step: chosen, at: Date.now(), outcome });
    if (this.#disposed) return;
    // a cancel leaves the turn cut short: in auto mode carry on with the next rung at once
    if (this.#mode === "auto" && chosen === "cancel") return void this.retry();
    this.#publish();
  }

  /**
   * A throttle or a death reported while the turn still runs usually ends that turn a moment later (the stderr
   * line comes before the error response): give it `settleMs` to end by itself, so the ladder does not cancel a
   * turn that is already over. A stall climbs at once.
   */
  async #autoRetry(alert: WatchdogAlert): Promise<void> {
    await new Promise((r) => setTimeout(r, 0)); // after the event that raised it is handled
    if (alert.kind !== "stalled" && this.target.turnRunning())
      await Promise.race([this.target.turnEnded(), new Promise((r) => setTimeout(r, this.#settleMs))]);
    if (this.watchdog.alert === alert || alert.kind !== "stalled") await this.retry();
  }

  /** Forgets the current alert (the user looked at it). */
  dismiss(): void {
    this.watchdog.clear();
    this.#publish();
  }

  dispose(): void {
    this.#disposed = true;
    this.#abort.abort();
    for (const d of this.#owned.splice(0)) d.dispose();
    this.watchdog.dispose();
    this.#changes.dispose();
  }

  #publish(): void {
    if (!this.#disposed) this.#changes.fire(this.state);
  }
}

export type { LadderTarget };
