/**
 * The timers a client's request asks the thread host for (an exec run's `timeoutMs`, a detached run's `timeoutMs`
 * and `stallMs`), checked at the door: a value the host cannot honour is refused with what to change, never
 * started as a run that times out at once, never, or later than asked. A timeout is a Node timer: past
 * MAX_TIMER_MS (about 24.8 days) it would not wait as asked. A stall time has no such bound (the watchdog re-arms
 * for the rest), so only its type and sign are checked.
 */
import { AcpThreadsError } from "../errors";
import { isTimerMs, MAX_TIMER_MS } from "../util/guards";
import type { DetachedRun } from "./protocol";

/** Why `v` is not a timeout the host honours (undefined: it is one, or none was asked for). */
export function timeoutProblem(v: unknown): string | undefined {
  if (v === undefined || isTimerMs(v)) return undefined;
  return (
    `timeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS} ` +
    `(about 24.8 days, the longest a run can be timed); got ${JSON.stringify(v) ?? String(v)}`
  );
}

/** Refuses (`usage`) a detached run whose timeout or stall time the host cannot honour. */
export function assertRunTimers(run: Pick<DetachedRun, "timeoutMs" | "stallMs">): void {
  const timeout = timeoutProblem(run.timeoutMs);
  if (timeout) throw new AcpThreadsError("usage", `run: ${timeout}`);
  const stall: unknown = run.stallMs;
  if (typeof stall !== "number" || !Number.isFinite(stall) || stall < 0)
    throw new AcpThreadsError(
      "usage",
      `run: stallMs must be a number of milliseconds, 0 or more (0: no watchdog); got ${JSON.stringify(stall) ?? String(stall)}`,
    );
}
