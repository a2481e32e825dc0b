/**
 * Cancel of an engine request (#35 item 7): a request's handler stops at a checkpoint once the caller aborted it (in
 * process: the call's AbortSignal; over the host's socket: an `engine_cancel`; in the engine worker: a cancel
 * message), with an `interrupted` error. A checkpoint lets this thread's event loop turn once, so a cancel that
 * came meanwhile is heard; in a worker whose handler runs synchronously (an import), `poll` fetches it.
 */
import { AcpThreadsError } from "../errors";
import type { EngineContext } from "./serve-types";

export const cancelledError = (started = true) =>
  new AcpThreadsError(
    "interrupted",
    started ? "the engine request was cancelled" : "the engine request was cancelled before it started",
  );

/** True once the request was cancelled (cancels waiting in a worker's queue fetched first). */
export function isCancelled(ctx: EngineContext, signal: AbortSignal | undefined): boolean {
  if (!signal) return false;
  ctx.poll?.();
  return signal.aborted;
}

/** Between two steps of a request: throws `interrupted` once it was cancelled. */
export async function checkpoint(ctx: EngineContext, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (isCancelled(ctx, signal)) throw cancelledError();
}
