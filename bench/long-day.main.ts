/**
 * `npm run bench -- long-day`: a simulated 8-hour session through the REAL extension host (code-server, see
 * test/host/run.mjs): bench/long-day/in-host.main.ts runs inside it and prints host RSS after each session (the
 * curve), the growth after warm-up and the event-loop delay p99 with three agents streaming, each next to a
 * baseline measured in the same run. Figures only, never asserted.
 *
 *   node dist-test/bench/long-day.main.js [--scale F]   F scales every count (default 1: 200k updates, 5k tool
 *                                                         calls, 500 terminals, 2k reads, 20 sessions)
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { scale: { type: "string", default: process.env.LONG_DAY_SCALE ?? "1" } } });
const scale = Number(values.scale);
if (!(scale > 0)) throw new Error(`--scale must be a positive number, got ${values.scale}`);
const n = (full: number, min = 1) => String(Math.max(min, Math.round(full * scale)));
const root = join(__dirname, "..", "..");
const env = {
  ...process.env,
  LONG_DAY_UPDATES: n(200_000),
  LONG_DAY_TOOLS: n(5_000),
  LONG_DAY_TERMINALS: n(500),
  LONG_DAY_READS: n(2_000),
  LONG_DAY_SESSIONS: n(20, 6),
};
const r = spawnSync(
  "node",
  [
    join(root, "test/host/run.mjs"),
    "--pass",
    "main",
    "--tests",
    join(root, "dist-test/bench/long-day/in-host.main.js"),
    "--timeout",
    String(Math.max(600, Math.round(36_000 * scale))),
  ],
  { stdio: "inherit", env, cwd: root },
);
process.exit(r.status ?? 1);
