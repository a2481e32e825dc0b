/**
 * Watches one live thread for the three ways a running agent gets stuck:
 *  - stalled: a turn is running, nobody is being asked for a permission, and no update has arrived for
 *    `stallMs` (the alert names the tool call still in progress, if any: the case that hangs for good);
 *  - rate_limited / overloaded: a turn error, an error notice or a stderr line says the model API refused;
 *  - died: the agent process exited (mid-turn, or idle between turns).
 * The host feeds it what it sees; the watchdog only decides and fires `onAlert`. Pure apart from the timer.
 */
import { Emitter, type Disposable } from "../lifecycle";
import type { RuntimeEvent } from "../model/events";
import { timerMs } from "../util/guards";
import { classifyThrottle } from "./classify";
import { DEFAULT_STALL_MS, type WatchdogAlert } from "../model/watchdog";

export interface WatchdogClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: WatchdogClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

const RUNNING = new Set(["pending", "in_progress"]);

export class TurnWatchdog implements Disposable {
  readonly #alerts = new Emitter<WatchdogAlert | undefined>();
  /** Fires when the alert changes: a new alert, or undefined once it cleared (a repeat is not fired again). */
  readonly onAlert = this.#alerts.event;
  #alert: WatchdogAlert | undefined;
  /** Turns seen; an alert repeats (same kind and message) only within the turn that raised it. */
  #turn = 0;
  #alertTurn = -1;
  #inTurn = false;
  /** Whether the running (or last) turn brought any output or tool call. */
  #produced = false;
  #waiting = 0;
  #lastActivity = 0;
  #timer: unknown;
  readonly #tools = new Map<string, string>();

  constructor(
    private stallMs: number = DEFAULT_STALL_MS,
    private readonly clock: WatchdogClock = realClock,
  ) {}

  /** The current alert, until the next healthy turn or `clear()`. */
  get alert(): WatchdogAlert | undefined {
    return this.#alert;
  }

  get turnRunning(): boolean {
    return this.#inTurn;
  }

  /** Whether the current (or last) turn produced output text or a tool call. */
  get produced(): boolean {
    return this.#produced;
  }

  setStallMs(ms: number): void {
    this.stallMs = ms;
    if (this.#inTurn) this.#arm();
  }

  turnStarted(): void {
    this.#turn++;
    this.#inTurn = true;
    this.#produced = false;
    this.#tools.clear();
    this.#touch();
  }

  /** The turn is over; a clean end (`end_turn` without an alert) clears the alert. */
  turnEnded(stopReason?: string): void {
    this.#inTurn = false;
    this.#waiting = 0;
    this.#disarm();
    if (stopReason === "end_turn") this.clear();
  }

  /** An event of the running turn (or a stray update between turns). */
  observe(e: RuntimeEvent): void {
    this.#touch();
    if (e.type === "tool_call" || (e.type === "text" && e.stream === "output")) this.#produced = true;
    if (e.type === "tool_call") {
      if (RUNNING.has(e.toolCall.status)) this.#tools.set(e.toolCall.toolCallId, e.toolCall.title);
      else this.#tools.delete(e.toolCall.toolCallId);
    } else if (e.type === "error") {
      if (e.code === "agent_exited") this.agentExited(e.message);
      else this.#throttle(e.message);
    } else if (e.type === "notice" && e.severity !== "info") {
      this.#throttle([e.title, e.description].filter(Boolean).join(": "));
    }
  }

  /** A line the agent wrote to stderr. */
  stderr(line: string): void {
    this.#throttle(line);
  }

  /** A permission request is waiting for a person (true) or was answered (false): no stall while waiting. */
  waitingForUser(waiting: boolean): void {
    this.#waiting = Math.max(0, this.#waiting + (waiting ? 1 : -1));
    this.#touch();
  }

  agentExited(message: string, stderrTail: readonly string[] = []): void {
    const detail =
      stderrTail
        .filter((l) => l.trim())
        .slice(-10)
        .join("\n") || undefined;
    this.#raise({ kind: "died", message, ...(detail ? { detail } : {}) });
  }

  clear(): void {
    if (!this.#alert) return;
    this.#alert = undefined;
    this.#alerts.fire(undefined);
  }

  dispose(): void {
    this.#disarm();
    this.#alerts.dispose();
  }

  #throttle(text: string): void {
    const t = classifyThrottle(text);
    if (!t) return;
    const what = t.kind === "rate_limited" ? "The model API is rate-limiting the agent" : "The model API is overloaded";
    this.#raise({
      kind: t.kind,
      message: `${what} (${t.match})`,
      detail: text.length > 2000 ? `${text.slice(0, 2000)}…` : text,
      ...(t.retryAfterMs !== undefined ? { retryAfterMs: t.retryAfterMs } : {}),
    });
  }

  #raise(a: Omit<WatchdogAlert, "at" | "turnRunning">): void {
    if (this.#alert?.kind === a.kind && this.#alert.message === a.message && this.#alertTurn === this.#turn) return;
    this.#alertTurn = this.#turn;
    this.#alert = { ...a, at: this.clock.now(), turnRunning: this.#inTurn };
    this.#alerts.fire(this.#alert);
  }

  #touch(): void {
    this.#lastActivity = this.clock.now();
    if (this.#alert?.kind === "stalled") this.clear(); // it moves again
    if (this.#inTurn && this.#timer === undefined) this.#arm();
  }

  #arm(): void {
    this.#disarm();
    if (!this.#inTurn || this.stallMs <= 0) return;
    const due = this.#lastActivity + this.stallMs - this.clock.now();
    // past a timer's range it fires early and re-arms for the rest (#check), as after activity
    this.#timer = this.clock.setTimeout(() => this.#check(), timerMs(Math.max(0, due)));
  }

  #disarm(): void {
    if (this.#timer !== undefined) this.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  // one timer per silence, not per event: when it fires early (activity since), it re-arms for the rest
  #check(): void {
    this.#timer = undefined;
    if (!this.#inTurn) return;
    const silent = this.clock.now() - this.#lastActivity;
    if (this.#waiting > 0) return; // re-armed when the answer comes (#touch)
    if (silent < this.stallMs) return this.#arm();
    const [toolCallId, title] = [...this.#tools.entries()].at(-1) ?? [];
    const secs = Math.round(silent / 1000);
    this.#raise({
      kind: "stalled",
      message: toolCallId
        ? `No update for ${secs} s while the tool call "${title || toolCallId}" is in progress`
        : `No update for ${secs} s during the turn`,
      ...(toolCallId ? { toolCall: { toolCallId, title: title ?? "" } } : {}),
    });
  }
}
