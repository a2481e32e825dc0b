/**
 * A serving client's side of one `serve` ask (editor-serve.ts): while `work` runs it tells the host it still works
 * on it (`serving`, every SERVE_ALIVE_MS), so a write waiting on the user is never timed out into a second write on
 * the disk; once the host no longer waits for it (the connection closed: the host fell back to the disk, or it
 * answered `serving` with an error) the signal given to `work` is aborted: `work` must then not apply it (the
 * window's files check it before each apply), and `abandoned` is told whether it was applied all the same (it was
 * done before the client learnt the host gave up). Its answer goes only while the host waits.
 */
import type { HostConnection } from "./client";
import { SERVE_ALIVE_MS, type ServeAnswer, type ServeOp } from "./protocol-serve";

export interface ServeWork {
  (op: ServeOp, signal: AbortSignal): Promise<ServeAnswer>;
}

export async function answerServe(
  c: HostConnection,
  ask: number,
  op: ServeOp,
  work: ServeWork,
  opts: { aliveMs?: number; abandoned?: (op: ServeOp, applied: boolean) => void } = {},
): Promise<void> {
  const ac = new AbortController();
  let answered = false;
  // a late error to a `serving` sent just before the answer, or the connection closing after it, changes nothing
  const stop = () => answered || ac.abort();
  const offClose = c.onClose(stop);
  if (c.closed) stop();
  const timer = setInterval(() => {
    if (!c.closed) c.request({ t: "serving", ask }).catch(stop);
  }, opts.aliveMs ?? SERVE_ALIVE_MS);
  let answer: ServeAnswer = { failed: "not answered" };
  try {
    answer = await work(op, ac.signal);
    clearInterval(timer);
    if (!ac.signal.aborted) {
      answered = true;
      await c.request({ t: "served", ask, answer }).catch(() => undefined);
    }
  } finally {
    clearInterval(timer);
    offClose();
    if (ac.signal.aborted) opts.abandoned?.(op, "done" in answer);
  }
}
