/**
 * The watchdog's state as the front ends show it (#35 item 7): what is wrong with a live thread, the retry ladder's
 * rungs, its mode and the default stall. Plain data: core/watchdog (the watchdog, its ladder and the supervisor that
 * joins them) makes it, the thread host's protocol carries it, the panel, the tree and the CLI read it.
 */

/** How a model API refused: too many requests, or overloaded. */
export type ThrottleKind = "rate_limited" | "overloaded";

export type AlertKind = "stalled" | ThrottleKind | "died";

export interface WatchdogAlert {
  kind: AlertKind;
  /** Milliseconds since the epoch. */
  at: number;
  /** One line for people: what happened. */
  message: string;
  /** The matched error text, or the agent's last stderr lines. */
  detail?: string;
  /** How long the provider asked to wait (rate limits). */
  retryAfterMs?: number;
  /** The tool call that was still running when the turn went silent. */
  toolCall?: { toolCallId: string; title: string };
  /** Whether the turn was still running when the alert fired. */
  turnRunning: boolean;
}

/** The retry ladder's rungs, lowest first (core/watchdog/retry-ladder.ts says what each does). */
export const RETRY_STEPS = ["cancel", "continue", "restart"] as const;
export type RetryStep = (typeof RETRY_STEPS)[number];

/** `offer`: the ladder's next rung is offered to a person; `auto`: the supervisor climbs by itself. */
export type RetryMode = "offer" | "auto";

/** How long a running turn may go without an update before it counts as stalled (3 minutes). */
export const DEFAULT_STALL_MS = 180_000;

/** A watched thread's state, as the supervisor publishes it. */
export interface SupervisorState {
  alert: WatchdogAlert | undefined;
  /** The rung `retry()` would take now (undefined: nothing to do, or the ladder is exhausted). */
  next: RetryStep | undefined;
  /** A rung being taken right now. */
  running: RetryStep | undefined;
  /** Every rung taken since the last healthy turn, oldest first. */
  history: { step: RetryStep; at: number; outcome: string }[];
  /** The ladder has no rung left and the trouble is still there. */
  exhausted: boolean;
}

/** A thread's watchdog as the user set it (the editor's settings, the CLI's flags): plain data, no clock. */
export interface WatchdogSettings {
  stallMs?: number;
  /** Auto mode: how long a throttled or dying turn may take to end by itself before the ladder acts. */
  settleMs?: number;
  mode?: RetryMode;
}
