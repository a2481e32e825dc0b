/**
 * Waiting with an AbortSignal: `p`, or a rejection with "stopped" as soon as `signal` aborts (the caller then
 * closes the runtime).
 */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new Error("stopped"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("stopped"));
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
