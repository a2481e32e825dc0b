/**
 * The run loop's (run-loop.ts) turn-by-turn parts: the prompts it sends, waiting out a cancelled turn and the
 * watchdog's ladder, and whether the run leaves after a turn.
 */
import type { ContextItem } from "../model/context";
import type { NextPrompt, RunEnd } from "../model/run";
import type { ThreadSession } from "../session";
import type { Supervisor } from "../watchdog/supervisor";
import type { RunLoopOptions } from "./run-options";

/** After Ctrl-C or the timeout the turn is cancelled; an agent that ignores that gets this long, then close(). */
export const CANCEL_GRACE_MS = 3_000;

/** One prompt of the run: its text, the run's context (the first), or as composed. */
export type Turn = NextPrompt & { context?: ContextItem[] };

/** Resolves `graceMs` after `signal` aborts (never before). */
export const afterAbort = (signal: AbortSignal, graceMs: number) =>
  new Promise<void>((resolve) => {
    const arm = () => setTimeout(resolve, graceMs).unref();
    if (signal.aborted) arm();
    else signal.addEventListener("abort", arm, { once: true });
  });

/** Waits until the supervisor has nothing more to do for this turn (auto mode climbs its ladder first). */
export async function settled(s: Supervisor, session: ThreadSession, stop: AbortSignal): Promise<void> {
  const done = () => {
    const st = s.state;
    return !st.running && !session.turnRunning && (!st.alert || st.next === undefined || s.mode !== "auto");
  };
  while (!done() && !stop.aborted) await new Promise((r) => setTimeout(r, 100));
}

/**
 * The prompts given (the first with the run's context), then each one `next` has, with its own (the thread host's
 * clients send them while the run goes on; a run the host keeps open waits there for the next one).
 */
export async function* prompts(
  o: Pick<RunLoopOptions, "context" | "firstParts" | "nextPrompt">,
  given: readonly string[],
): AsyncGenerator<Turn> {
  for (const [i, text] of given.entries())
    yield i ? { text } : { text, context: o.context, ...(o.firstParts ? { parts: o.firstParts } : {}) };
  for (let p = await o.nextPrompt?.(); p !== undefined; p = await o.nextPrompt?.()) yield p;
}

/**
 * Whether the run leaves after a turn, and how. A run leaves on an error turn, on a watchdog alert other than a
 * stall (after auto mode's ladder), and on a denied permission the agent gave up on. A run kept open (the thread
 * host's, as a window's session) stays for its next prompt after any of those while its agent lives: the error is
 * in the thread. It leaves when its agent is dead with no rung left for a person to take: no watchdog, or its
 * ladder spent (`offer` keeps it for a person's Restart; `auto` has restarted it already).
 */
export function leaves(
  keepOpen: boolean,
  s: ThreadSession,
  supervisor: Supervisor | undefined,
  last: { stopReason: string; error?: string } | undefined,
  denied: boolean,
): { end: RunEnd; error?: string } | undefined {
  const alert = supervisor?.state.alert;
  const error = last?.error ?? alert?.message;
  if (keepOpen)
    return s.agentAlive || supervisor?.state.next !== undefined
      ? undefined
      : { end: "error", error: error ?? "the agent exited" };
  if (last?.error || (alert && alert.kind !== "stalled")) return { end: "error", ...(error ? { error } : {}) };
  if (denied && (last?.stopReason === "cancelled" || last?.stopReason === "refusal"))
    return { end: "permission_denied" };
  return undefined;
}
