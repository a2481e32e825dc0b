/**
 * Sandbox bench (#34): what `--sandbox` adds to an agent's start and to its turns. Per round, in rotating order,
 * starts the scripted stdio agent (node) unsandboxed, inside bubblewrap, and inside bubblewrap without the seccomp
 * filter, and times spawn → `initialize` answered; then one session per mode and `--turns` (default 20) short
 * turns each. Prints medians and p95 for the modes measured in the same run, the differences (the filter's own
 * cost among them), and the one-time cost of resolving the policy (the probe is cached per process; a fresh
 * process pays it once, printed too), then the egress allow-list's costs (sandbox-egress.ts: its sandbox loads
 * the filter through a nested bwrap). No asserts: the goal (≤ 100 ms added per start, median; no per-turn cost)
 * is read off the figures. Linux with a working bwrap only; elsewhere it says so and exits 0.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createAgentRuntime } from "../src/core/acp/agent-runtime";
import { buildSandboxPolicy } from "../src/core/sandbox/policy";
import { prepareSandbox, type SandboxPlan } from "../src/core/sandbox/plan";
import { sandboxAvailability } from "../src/core/sandbox/tool";
import { egressBench } from "./sandbox-egress";

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const ROUNDS = arg("rounds", 15);
const TURNS = arg("turns", 20);
const AGENT = join(__dirname, "..", "fixtures", "fake-agents", "stdio-agent.main.js");

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const f = (n: number) => n.toFixed(1);

function runtime(cwd: string, home: string, sandbox?: SandboxPlan) {
  return createAgentRuntime(
    {
      agent: { id: "fake", displayName: "Fake", command: process.execPath, args: [AGENT] },
      cwd,
      env: { HOME: home },
      sandbox,
    },
    { noPty: true },
  );
}

async function startOnce(cwd: string, home: string, sandbox?: SandboxPlan): Promise<number> {
  const t0 = performance.now();
  const rt = runtime(cwd, home, sandbox);
  await rt.start();
  const ms = performance.now() - t0;
  await rt.close();
  return ms;
}

/** Short turns on one session per mode, alternating between the two: [unsandboxed, sandboxed] times. */
async function turns(cwd: string, home: string, plan: SandboxPlan): Promise<[number[], number[]]> {
  const modes = [runtime(cwd, home), runtime(cwd, home, plan)];
  const sessions = await Promise.all(modes.map(async (rt) => (await rt.ensureSession()).sessionId));
  const out: [number[], number[]] = [[], []];
  for (let i = 0; i < TURNS * 2; i++) {
    const m = (i + Math.floor(i / 2)) % 2; // A B B A A B ...
    const t0 = performance.now();
    for await (const _ of modes[m]!.runTurn(sessions[m]!, "stream 3")) void _;
    out[m]!.push(performance.now() - t0);
  }
  await Promise.all(modes.map((rt) => rt.close()));
  return out;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const found = await sandboxAvailability();
  const probeMs = performance.now() - t0;
  if (!found.available || spawnSync("true").error) {
    console.log(`sandbox bench skipped: ${found.available ? "" : found.problem}`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "bench-sandbox-"));
  const home = join(dir, "home");
  const ws = join(dir, "ws");
  mkdirSync(home);
  mkdirSync(ws);
  try {
    const input = { roots: [ws], agentId: "codex", home, env: {}, tmpDir: tmpdir() };
    const policy = buildSandboxPolicy(input);
    const t1 = performance.now();
    const plan = await prepareSandbox(policy);
    const prepareMs = performance.now() - t1;
    const plain: number[] = [];
    const boxed: number[] = [];
    const unfiltered: number[] = [];
    const noFilter: SandboxPlan = { ...plan, seccomp: undefined };
    const series: Array<[number[], SandboxPlan | undefined]> = [
      [plain, undefined],
      [boxed, plan],
      [unfiltered, noFilter],
    ];
    await startOnce(ws, home); // warm the file cache for both
    for (let i = 0; i < ROUNDS; i++) {
      // each round in another order: plain, filtered, unfiltered; filtered, unfiltered, plain; ...
      for (let j = 0; j < series.length; j++) {
        const [times, p] = series[(i + j) % series.length]!;
        times.push(await startOnce(ws, home, p));
      }
    }
    const [plainTurns, boxedTurns] = await turns(ws, home, plan);
    console.log(
      `tool: ${found.tool.kind} (${found.tool.path}); probe ${f(probeMs)} ms once per process, policy resolved in ${f(prepareMs)} ms per session`,
    );
    console.log(`agent start → initialize answered (${ROUNDS} rounds, alternating):`);
    console.log(`  unsandboxed  median ${f(pct(plain, 0.5))} ms  p95 ${f(pct(plain, 0.95))} ms`);
    console.log(`  sandboxed    median ${f(pct(boxed, 0.5))} ms  p95 ${f(pct(boxed, 0.95))} ms`);
    console.log(`  added        median ${f(pct(boxed, 0.5) - pct(plain, 0.5))} ms (goal ≤ 100 ms)`);
    if (plan.seccomp) {
      console.log(
        `  sandboxed, no seccomp filter  median ${f(pct(unfiltered, 0.5))} ms  p95 ${f(pct(unfiltered, 0.95))} ms`,
      );
      console.log(
        `  the filter adds  median ${f(pct(boxed, 0.5) - pct(unfiltered, 0.5))} ms (sh opening it, bwrap loading it)`,
      );
    } else console.log("  no seccomp filter on this machine");
    console.log(`one short turn (${TURNS} per mode, one session each, alternating):`);
    console.log(`  unsandboxed  median ${f(pct(plainTurns, 0.5))} ms  p95 ${f(pct(plainTurns, 0.95))} ms`);
    console.log(`  sandboxed    median ${f(pct(boxedTurns, 0.5))} ms  p95 ${f(pct(boxedTurns, 0.95))} ms`);
    await egressBench(input, ROUNDS, (p) => startOnce(ws, home, p));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
