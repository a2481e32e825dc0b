/**
 * Waiting with an AbortSignal: `p`, or a rejection with "stopped" as soon as `signal` aborts (the caller then
 * closes the runtime). The promise given up on is still observed: its later rejection (the agent's start failing
 * once the caller closed it) is nobody's to handle, and must not surface as an unhandled rejection.
 */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) {
    p.catch(() => undefined);
    return Promise.reject(new Error("stopped"));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("stopped"));
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
