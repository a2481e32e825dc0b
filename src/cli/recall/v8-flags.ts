/**
 * Called by the one-shot recall reads (a query, `status`) before the index is opened. Such a process runs one
 * query, so compiling SQLite's WASM with the optimizing tier is wasted work competing for the CPU: baseline
 * (Liftoff) code only, compiled per function on its first call, cuts a cold query's wall time (bench:recall,
 * "cold"). Imports (bootstrap, sync) and long-lived processes (mcp, the warm recall process, the extension)
 * keep V8's defaults. ACP_THREADS_V8_FLAGS replaces the flags (measurements).
 */
let set = false;

export function oneShotWasmFlags(env: NodeJS.ProcessEnv = process.env): void {
  if (set) return;
  set = true;
  // loaded here, not at the top: a query the warm process answers never needs node:v8 (1.5 ms to load)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { setFlagsFromString } = require("node:v8") as typeof import("node:v8");
  setFlagsFromString(env.ACP_THREADS_V8_FLAGS ?? "--liftoff-only --wasm-lazy-compilation");
}
