/**
 * Spawn bench (#24): how long starting a process blocks this thread when the process is as large as an
 * extension host, started directly (`child_process.spawn` forks this process) against through the spawner
 * (dist/spawner.js forks instead; this thread only sends a message and opens two sockets). First grows the
 * process to a host-sized heap (`--mb N`, default 300: half JS objects, half buffers, every page touched), then
 * per path starts `--n` (default 30) short processes one after the other, each as an agent is started (piped
 * stdio, own group), and waits for its exit. Prints, per path, the time `launch()` held the thread (median, p95,
 * max), the event-loop delay while the processes ran (p99, max), the time to exit, and the ratios against the
 * direct path measured in the same run; then the same for node-pty terminals, direct against through the spawner
 * (`spawnPty`: one socket and one message here). Then the exec runs and the edit ledger's git calls (#24): an exec
 * run started with `start` (forks here) against `startAsync` with the spawner installed, on pipes and on a pty,
 * and the ledger's `indexEntries` (a git ls-files) with the command runner here against the spawner's: per start,
 * the time the call held the thread before returning, the longest block of the thread from the call to the run's
 * exit (the call or the event-loop delay's max), and the thread's busy time in all (event-loop utilization) over
 * that span. No asserts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { join } from "node:path";
import { ExecRegistry } from "../src/core/exec";
import { indexEntries } from "../src/core/ledger/git-plumbing";
import { loadPty, setPtySpawner } from "../src/core/platform/pty";
import { directLauncher, setTerminalLauncher, type Launcher } from "../src/core/platform/launcher";
import { setCommandRunner } from "../src/core/platform/run-to-end";
import { SpawnerLauncher } from "../src/core/platform/spawner-client";

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const MB = arg("mb", 300);
const N = arg("n", 30);
const SPAWNER_JS = join(__dirname, "..", "..", "dist", "spawner.js");

const keep: unknown[] = [];
function growHeap(mb: number): void {
  const objects: { i: number; s: string; next: unknown }[] = [];
  // ~64 bytes per small object with its string: half the target in JS objects, half in touched buffers
  for (let i = 0; i < (mb / 2) * 16_000; i++) objects.push({ i, s: `item ${i}`, next: objects[i - 1] });
  keep.push(objects);
  for (let i = 0; i < mb / 2; i++) keep.push(Buffer.alloc(1024 * 1024, i & 0xff));
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const f = (n: number) => n.toFixed(2);

interface Figures {
  launchMedian: number;
  launchP95: number;
  launchMax: number;
  loopP99: number;
  loopMax: number;
  exitMedian: number;
}

async function measure(launcher: Launcher): Promise<Figures> {
  const held: number[] = [];
  const toExit: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const p = launcher.launch({ file: "/bin/sh", args: ["-c", "exit 0"], cwd: "/", env: process.env });
    held.push(performance.now() - t0);
    p.stdin.end();
    p.stdout.resume();
    p.stderr.resume();
    await p.exit;
    toExit.push(performance.now() - t0);
  }
  loop.disable();
  return {
    launchMedian: pct(held, 0.5),
    launchP95: pct(held, 0.95),
    launchMax: Math.max(...held),
    loopP99: loop.percentile(99) / 1e6,
    loopMax: loop.max / 1e6,
    exitMedian: pct(toExit, 0.5),
  };
}

interface PtyFigures {
  median: number;
  p95: number;
  max: number;
}

/** node-pty's forkpty from this process (exec PTY runs), or through the spawner (agent terminals, #24). */
async function measurePty(spawner?: SpawnerLauncher): Promise<PtyFigures | undefined> {
  const nodePty = loadPty();
  if (!nodePty) return undefined;
  const held: number[] = [];
  const opts = { cols: 80, rows: 24, name: "xterm", cwd: "/", env: process.env as Record<string, string> };
  const modulePath = require.resolve("node-pty");
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const term = spawner
      ? spawner.spawnPty("/bin/sh", ["-c", "exit 0"], opts, nodePty, modulePath)!
      : nodePty.spawn("/bin/sh", ["-c", "exit 0"], opts);
    held.push(performance.now() - t0);
    await new Promise<void>((r) => term.onExit(() => r()));
  }
  return { median: pct(held, 0.5), p95: pct(held, 0.95), max: Math.max(...held) };
}

interface StartFigures {
  held: number[];
  busy: number[];
  longest: number[];
}

/** Per start: how long `start()` held the thread before returning, and the thread's busy time until `done`. */
async function measureStarts(start: () => Promise<unknown> | unknown, done: (s: unknown) => Promise<unknown>) {
  const fig: StartFigures = { held: [], busy: [], longest: [] };
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  for (let i = 0; i < N; i++) {
    loop.reset();
    const elu = performance.eventLoopUtilization();
    const t0 = performance.now();
    const started = start();
    fig.held.push(performance.now() - t0);
    await done(await started);
    fig.busy.push(performance.eventLoopUtilization(elu).active);
    fig.longest.push(Math.max(fig.held[i]!, loop.max / 1e6));
  }
  loop.disable();
  return fig;
}

const stats = (xs: number[]) =>
  `median ${f(pct(xs, 0.5))} ms, p95 ${f(pct(xs, 0.95))} ms, max ${f(Math.max(...xs))} ms`;

/** Exec runs (`start` here against `startAsync` through the spawner) and the ledger's git ls-files. */
async function measureRunsAndLedger(spawner: SpawnerLauncher): Promise<void> {
  const execDir = mkdtempSync(join(tmpdir(), "acp-bench-exec-"));
  const registry = new ExecRegistry({ execDir, sweepIntervalMs: 0 });
  const repo = join(__dirname, "..", "..");
  const exited = (run: unknown) => (run as { exited: Promise<unknown> }).exited;
  const rows: [string, StartFigures][] = [];
  const withSpawner = async <T>(fn: () => Promise<T>): Promise<T> => {
    const undo = [
      setTerminalLauncher(spawner),
      setPtySpawner((...a) => spawner.spawnPty(...a)),
      setCommandRunner((req) => spawner.run(req)),
    ];
    try {
      return await fn();
    } finally {
      for (const u of undo.reverse()) u();
    }
  };
  const hasPty = !!loadPty();
  for (const pty of hasPty ? [false, true] : [false]) {
    const opts = { command: "/bin/sh", args: ["-c", "exit 0"], cwd: "/", pty };
    const kind = pty ? "pty" : "pipes";
    rows.push([`exec ${kind} start() direct`, await measureStarts(() => registry.start(opts), exited)]);
    rows.push([
      `exec ${kind} startAsync() spawner`,
      await withSpawner(() => measureStarts(() => registry.startAsync(opts), exited)),
    ]);
  }
  const settled = async () => {};
  rows.push(["ledger git ls-files direct", await measureStarts(() => indexEntries(repo), settled)]);
  rows.push(["ledger git ls-files spawner", await withSpawner(() => measureStarts(() => indexEntries(repo), settled))]);
  registry.dispose();
  rmSync(execDir, { recursive: true, force: true });
  for (const [name, x] of rows)
    console.log(
      `${name.padEnd(32)} call held the thread: ${stats(x.held)}; longest block until done: ${stats(x.longest)}; busy until done: ${stats(x.busy)}`,
    );
}

async function main(): Promise<void> {
  growHeap(MB);
  global.gc?.();
  const rssMb = process.memoryUsage().rss / 1024 / 1024;
  console.log(
    `process: RSS ${rssMb.toFixed(0)} MB, heap used ${(process.memoryUsage().heapUsed / 1024 / 1024).toFixed(0)} MB; ${N} launches per path`,
  );
  const spawner = new SpawnerLauncher({ script: SPAWNER_JS });
  // warm both paths once (the spawner's own start is a one-off fork of this process, not counted)
  for (const l of [directLauncher, spawner])
    await l.launch({ file: "/bin/true", args: [], cwd: "/", env: process.env }).exit;
  const direct = await measure(directLauncher);
  const viaSpawner = await measure(spawner);
  const ptyDirect = await measurePty();
  const ptySpawner = await measurePty(spawner);
  const row = (name: string, x: Figures) =>
    `${name.padEnd(8)} launch() held the thread: median ${f(x.launchMedian)} ms, p95 ${f(x.launchP95)} ms, max ${f(x.launchMax)} ms; event-loop delay p99 ${f(x.loopP99)} ms, max ${f(x.loopMax)} ms; to exit: median ${f(x.exitMedian)} ms`;
  console.log(row("direct", direct));
  console.log(row("spawner", viaSpawner));
  const ptyRow = (name: string, x: PtyFigures) =>
    `${name.padEnd(12)} spawn() held the thread: median ${f(x.median)} ms, p95 ${f(x.p95)} ms, max ${f(x.max)} ms`;
  if (ptyDirect && ptySpawner) {
    console.log(ptyRow("pty direct", ptyDirect));
    console.log(ptyRow("pty spawner", ptySpawner));
    console.log(
      `pty spawner/direct: median ${f(ptySpawner.median / ptyDirect.median)}x, p95 ${f(ptySpawner.p95 / ptyDirect.p95)}x, max ${f(ptySpawner.max / ptyDirect.max)}x`,
    );
  } else console.log("node-pty: not loadable here");
  console.log(
    `spawner/direct: launch() median ${f(viaSpawner.launchMedian / direct.launchMedian)}x, p95 ${f(viaSpawner.launchP95 / direct.launchP95)}x; loop p99 ${f(viaSpawner.loopP99 / direct.loopP99)}x; to exit ${f(viaSpawner.exitMedian / direct.exitMedian)}x`,
  );
  await measureRunsAndLedger(spawner);
  spawner.dispose();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
