/** Blocks this thread for `ms` (short waits on another thread's or process's lock, a Windows rename retry). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
