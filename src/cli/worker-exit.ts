/**
 * Node before 24 can deadlock a worker thread at its end (nodejs/node#54918; fixed in Node 24.0 by #58047, "only
 * block on user blocking worker tasks"). A worker whose event loop empties waits in `NodePlatform::DrainTasks` for
 * every background task of the process; a TurboFan job compiling that worker's code in the background can be waiting
 * for a garbage collection only the worker's own thread can run. Neither moves again: the worker never exits and
 * its handle keeps the process alive. Seen in a CI rehearsal under load (2 cores, load 14): a unit test process of
 * the thread catalog (four short-lived workers) hung 27 minutes after its last test passed; gdb showed the four
 * workers in DrainTasks and a platform thread in `LocalHeap::PerformCollectionAndAllocateAgain` /
 * `CollectionBarrier::AwaitCollectionBackground` from the compiler's `JSHeapBroker`.
 *
 * With V8's concurrent recompilation off, an isolate made afterwards (every worker this process starts) compiles
 * optimized code on its own thread, so no background job waits for its collection. The process's own main isolate
 * keeps it (V8 reads the flag when an isolate is made). Node 24+ and the editor's runtime are left alone.
 */
export const WORKER_EXIT_V8_FLAG = "--no-concurrent-recompilation";

/** Whether this Node needs the flag: before 24. */
export function needsWorkerExitFlag(nodeVersion: string): boolean {
  const major = Number(nodeVersion.split(".")[0]);
  return Number.isInteger(major) && major < 24;
}

/** Sets the flag on Node before 24, before this CLI process starts any worker; returns whether it did. */
export function avoidWorkerExitDeadlock(
  nodeVersion: string = process.versions.node,
  set: (flags: string) => void = (flags) =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require("node:v8") as typeof import("node:v8")).setFlagsFromString(flags),
): boolean {
  if (!needsWorkerExitFlag(nodeVersion)) return false;
  set(WORKER_EXIT_V8_FLAG);
  return true;
}
