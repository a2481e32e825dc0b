/**
 * Called by the one-shot recall reads (a query, `status`) before the index is opened. Such a process runs one
 * query, so compiling SQLite's WASM with the optimizing tier is wasted work competing for the CPU: baseline
 * (Liftoff) code only, compiled per function on its first call, cuts a cold query's wall time (bench:recall,
 * "cold"). Imports (bootstrap, sync) and long-lived processes (mcp, the warm recall process, the extension)
 * keep V8's defaults. ACP_THREADS_V8_FLAGS replaces the flags (measurements).
 */
let set = false;

/**
 * `--liftoff-only` alone is not enough once V8 has started: it implies no tier-up, but V8 works out a flag's
 * implications at start-up only, so on Node 22/24 (V8 12–13) a hot function was still recompiled by TurboFan in
 * the background (a first call at 100k messages: 280 ms of CPU instead of 130 on Node 24). The implied flags are
 * named here; Node 20 knows each of them too.
 */
export const ONE_SHOT_WASM_FLAGS = "--liftoff-only --no-wasm-tier-up --no-wasm-dynamic-tiering --wasm-lazy-compilation";

export function oneShotWasmFlags(env: NodeJS.ProcessEnv = process.env): void {
  if (set) return;
  set = true;
  // loaded here, not at the top: a query the warm process answers never needs node:v8 (1.5 ms to load)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { setFlagsFromString } = require("node:v8") as typeof import("node:v8");
  setFlagsFromString(env.ACP_THREADS_V8_FLAGS ?? ONE_SHOT_WASM_FLAGS);
}
