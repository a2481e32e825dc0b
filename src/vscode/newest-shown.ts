/**
 * Shows answers worked out asynchronously (a file looked at off the host's thread) in the order they were asked
 * for: an answer that arrives after a newer one was shown is dropped, so two checks that crossed never leave the
 * older state on screen. A rejected answer shows nothing and rejects the call.
 */
export function newestShown<T>(show: (value: T) => void): (answer: Promise<T>) => Promise<void> {
  let asked = 0;
  let shown = 0;
  return async (answer) => {
    const n = ++asked;
    const value = await answer;
    if (n < shown) return;
    shown = n;
    show(value);
  };
}
