/**
 * Edit-ledger figures on a 10,000-file workspace (plus 10,000 ignored files in node_modules):
 * - overhead per turn (turn start + turn end, wall and CPU) for a turn that changes 5 files, in a git
 *   repository and in a plain folder, with directory watches and with stat walks — in-process (the CLI) and in
 *   the walk worker (the editor, #36 item 6), and with half the folders' watches refused by the OS (those walked)
 *   — (goal ≤ 50 ms); "wall" is what the turn waits for the ledger (turn start + turn end: its critical path;
 *   the turn's first stat walk runs while the turn works since stop 39, so three rows per stat-walk workspace:
 *   the design before, the agent writing at once, and writing a model round trip in); "thread" is the time the
 *   calling thread was busy
 *   (event-loop utilisation: what the extension host's thread pays), cpu is the whole process's (workers too);
 *   baseline in the same run: the same turn's writes without the ledger, and `git status` (one checkpoint
 *   the naive way);
 * - memory the ledger holds for the workspace (goal ≤ 20 MB);
 * - the one-off baseline per folder and process (git index / reading a plain folder once), and in it the listing
 *   of every folder to watch (walkDirs: folders holding no known file are watched too);
 * - one stat walk of the 10k files in the walk worker (a turn takes two), its files stat'ed by 1, 2, … threads,
 *   wall and CPU, against its floors in the same run: one lstat of every file on as many threads, callback
 *   lstat through libuv's pool (ledger-par.ts), and GNU find over the same folders with a stat per file and
 *   without (C: ledger-floor.ts); `--only floor`;
 * - restore of 100 files, plan + apply (goal ≤ 500 ms); baseline: the same 100 atomic writes by hand;
 * - inline review's placement per keystroke through the engine's request against the cache called directly
 *   (review-placement.ts; `--only review`), and the thread panel's changed-files rows through `review.turnChanges`
 *   against the same work called directly (review-rows.ts).
 * Prints figures; asserts nothing.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance as nodePerformance } from "node:perf_hooks";
import { atomicWriteFile } from "../src/core/acp/disk-workspace-files";
import { EditLedger } from "../src/core/ledger/edit-ledger";
import { repoRoot } from "../test/fixtures/agent-env/index";
import { applyRestore, planRestore } from "../src/core/ledger/restore";
import { benchDirs, findAllMs } from "./ledger-floor";
import { parRows } from "./ledger-par";
import { IgnoreMatcher } from "../src/core/ledger/gitignore";
import { walkDirs } from "../src/core/ledger/walk";
import { WalkWorker } from "../src/core/ledger/walk-worker-client";
import { reviewPlacementRows } from "./review-placement";
import { reviewRowsRows } from "./review-rows";

const DIRS = 500;
const PER_DIR = 20;
const TURNS = 8;

function makeWorkspace(ws: string, git: boolean): void {
  for (let d = 0; d < DIRS; d++) {
    const dir = join(ws, `src/m${d % 25}/d${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < PER_DIR; f++)
      writeFileSync(join(dir, `f${f}.ts`), `export const x${f} = ${d};\n`.repeat(1 + ((f * 37) % 120)));
  }
  for (let d = 0; d < 200; d++) {
    const dir = join(ws, `node_modules/p${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 50; f++) writeFileSync(join(dir, `i${f}.js`), "module.exports = 1;\n");
  }
  writeFileSync(join(ws, ".gitignore"), "node_modules/\n*.log\n");
  if (git) {
    const g = (...a: string[]) =>
      execFileSync("git", ["-c", "user.email=b@b", "-c", "user.name=b", "-c", "gc.auto=0", ...a], { cwd: ws });
    g("init", "-q");
    g("add", "-A");
    g("commit", "-qm", "seed");
  }
  // a workspace's folders were last changed before the session, not in the second before it (the walk cache
  // re-reads a folder changed within RACY_MS: walk-cache.ts); the folders the agent writes into get fresh times
  const hourAgo = new Date(Date.now() - 3600_000);
  for (const d of ["", "src", ...Array.from({ length: DIRS }, (_, i) => `src/m${i % 25}/d${i}`)])
    utimesSync(join(ws, d), hourAgo, hourAgo);
  for (let m = 0; m < 25; m++) utimesSync(join(ws, `src/m${m}`), hourAgo, hourAgo);
}

const fileOf = (ws: string, d: number, f: number | string) => join(ws, `src/m${d % 25}/d${d}/f${f}.ts`);

/** One simulated agent turn: 3 files changed, 1 created, 1 deleted (different files each turn). */
function agentWrites(ws: string, turn: number): void {
  for (let i = 0; i < 3; i++)
    writeFileSync(fileOf(ws, turn * 3 + i, 1), `// turn ${turn}\nexport const changed = ${i};\n`);
  writeFileSync(fileOf(ws, 5, `new-${turn}`), `export const created = ${turn};\n`);
  unlinkSync(fileOf(ws, 7 + turn * 25, 2));
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return (m.heapUsed + m.external + m.arrayBuffers) / 2 ** 20;
}

interface TurnFigures {
  setupMs: number;
  overheadMs: number;
  cpuMs: number;
  /** The calling thread's busy time (event-loop utilisation) over turn start + end. */
  threadMs: number;
  baselineMs: number;
  memMb: number;
  files: number;
}

/**
 * "half-watched": the OS granted watches for half the 527 folders and refused the rest, which are walked; its
 * "-before" and "-later" rows as the stat walks' (the turn's first sync runs while the turn works since stop 40).
 * "walk-worker-before": the design before stop 39, the baseline in the same run: the turn's first walk runs
 * before the turn starts. "walk-worker-later": the turn's first walk runs while the turn works, and the agent's
 * first write comes a model round trip (`ROUND_TRIP_MS`) after the prompt, as with a real agent; "walk-worker":
 * the same with the agent writing at once, so the turn's end waits for that walk too (the worst case);
 * "walk-worker-1-later": as "-later", the walks' files stat'ed by the walk worker alone (one thread: a one-core
 * machine), against the machine's cores (stat-pool.ts) in the same run.
 */
type Mode =
  | "watch"
  | "walk"
  | "walk-worker"
  | "walk-worker-before"
  | "walk-worker-later"
  | "walk-worker-1-later"
  | "half-watched"
  | "half-watched-before"
  | "half-watched-later";

/** The simulated model's first round trip before the agent writes ("walk-worker-later"). */
const ROUND_TRIP_MS = 150;

const HALF_THE_FOLDERS = 264;

/**
 * `--only <mode prefix>`: only the turn rows of those modes (a quick A/B on a loaded machine), nothing else;
 * `--only floor`: only the one-walk rows and their floors (ledger-floor.ts), on a fresh git workspace.
 */
const ONLY = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;

/**
 * The turns of each of `modes` (one workspace and ledger each), interleaved turn by turn so that a loaded
 * machine weighs on each mode alike (the same-run A/B of the stat-walk designs). `memMb`: the group's ledgers
 * together.
 */
async function turns(dir: string, git: boolean, modes: readonly Mode[]): Promise<TurnFigures[]> {
  const runs: {
    mode: Mode;
    ws: string;
    ledger: EditLedger;
    lease: { dispose(): void };
    setupMs: number;
    base: number[];
    overhead: number[];
    cpu: number[];
    thread: number[];
    files: number;
  }[] = [];
  for (const mode of modes) {
    const ws = join(dir, `ws-${git ? "git" : "plain"}-${mode}`);
    makeWorkspace(ws, git);
    // baseline in the same run: the same writes with no ledger
    const base: number[] = [];
    for (let turn = 0; turn < TURNS; turn++) {
      const t0 = process.hrtime.bigint();
      agentWrites(ws, turn);
      base.push(ms(t0));
    }
    runs.push({ mode, ws, base } as (typeof runs)[number]);
  }
  // the previous round's watches and ledger are released once their close callbacks ran: let them, then GC
  await new Promise((r) => setTimeout(r, 200));
  const mem0 = heapMb();
  for (const r of runs) {
    const half = r.mode.startsWith("half-watched");
    const watch = r.mode === "watch" ? true : half ? HALF_THE_FOLDERS : false;
    r.ledger = new EditLedger({
      home: join(dir, `home-${git}-${r.mode}`),
      watch,
      walkWorker: r.mode === "walk" || r.mode === "watch" ? false : join(repoRoot(), "dist", "walk-worker.js"),
      ...(r.mode === "walk-worker-1-later" ? { walkStatThreads: 1 } : {}),
      overlapTurnStart: !r.mode.endsWith("-before"),
    });
    const t0 = process.hrtime.bigint();
    r.lease = await r.ledger.prepare(r.ws); // keeps the folder tracked, as a live session does
    r.setupMs = ms(t0);
    Object.assign(r, { overhead: [], cpu: [], thread: [], files: 0 });
  }
  const threadId = "0196a000-0000-7000-8000-000000000001";
  const elu = nodePerformance.eventLoopUtilization;
  for (let turn = TURNS; turn < TURNS * 2; turn++)
    for (const r of runs) {
      const c0 = process.cpuUsage();
      const e0 = elu();
      const a = process.hrtime.bigint();
      const capture = await r.ledger.beginTurn({ threadId, turn, cwd: r.ws, agent: { id: "bench", name: "bench" } });
      const begin = ms(a);
      const e1 = elu(e0);
      if (r.mode.endsWith("-later")) await new Promise((res) => setTimeout(res, ROUND_TRIP_MS));
      const c1 = process.cpuUsage(c0); // with the turn's first walk running while it works: its CPU too
      agentWrites(r.ws, turn);
      const c2 = process.cpuUsage();
      const e2 = elu();
      const b = process.hrtime.bigint();
      const op = await capture.end("end_turn");
      r.overhead.push(begin + ms(b));
      r.cpu.push(cpuMs(c1) + cpuMs(process.cpuUsage(c2)));
      r.thread.push(e1.active + elu(e2).active);
      r.files = op.files.length;
    }
  const memMb = heapMb() - mem0;
  for (const r of runs) {
    r.lease.dispose();
    r.ledger.dispose();
  }
  return runs.map((r) => ({
    setupMs: r.setupMs,
    overheadMs: median(r.overhead),
    cpuMs: median(r.cpu),
    threadMs: median(r.thread),
    baselineMs: median(r.base),
    memMb,
    files: r.files,
  }));
}

async function restore100(dir: string): Promise<{ ms: number; baselineMs: number; files: number }> {
  const ws = join(dir, "ws-restore");
  mkdirSync(ws);
  const paths = Array.from({ length: 100 }, (_, i) => join(ws, `file-${i}.ts`));
  for (const p of paths) writeFileSync(p, `export const before = "${p}";\n`.repeat(40));
  const ledger = new EditLedger({ home: join(dir, "home-restore") });
  const threadId = "0196a000-0000-7000-8000-000000000002";
  const capture = await ledger.beginTurn({ threadId, turn: 1, cwd: ws, agent: { id: "bench", name: "bench" } });
  for (const p of paths) writeFileSync(p, `export const after = 1;\n`.repeat(40));
  await capture.end("end_turn");
  const t0 = process.hrtime.bigint();
  const op = await applyRestore(ledger, await planRestore(ledger, threadId, { turn: 1 }), { cwd: ws });
  const restoreMs = ms(t0);
  const b0 = process.hrtime.bigint();
  await Promise.all(paths.map((p) => atomicWriteFile(p, `export const by_hand = 1;\n`.repeat(40))));
  const baselineMs = ms(b0);
  ledger.dispose();
  return { ms: restoreMs, baselineMs, files: op.files.length };
}

/**
 * In the git repository: its folders to watch listed alone (a fresh matcher each run, as a tracker's baseline
 * has), here asynchronously ("dirs": the CLI without the walk worker) or in the walk worker ("dirs-in-worker":
 * a fresh client each run). A sync's stat walk: ledger-par.ts.
 */
async function walkerMs(
  ws: string,
  how: "dirs" | "dirs-in-worker",
): Promise<{ ms: number; threadMs: number; cpuMs: number; count: number }> {
  const worker = how === "dirs" ? undefined : new WalkWorker(join(repoRoot(), "dist", "walk-worker.js"));
  const req = { root: ws, top: ws, prefix: "", maxFiles: 1e6, dirsOnly: true };
  const run = async (): Promise<number> => {
    if (!worker) return (await walkDirs(ws, new IgnoreMatcher(ws), (r) => r)).length;
    return (await worker.walk({ ...req, client: worker.client() }))?.walk.dirs?.length ?? 0;
  };
  await run(); // the worker's start (and a walk's first listing of every folder) is not a sync's cost
  let count = 0;
  const runs: number[] = [];
  const thread: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 3; i++) {
    const e0 = nodePerformance.eventLoopUtilization();
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    count = await run();
    runs.push(ms(t0));
    cpu.push(cpuMs(process.cpuUsage(c0)));
    thread.push(nodePerformance.eventLoopUtilization(e0).active);
  }
  worker?.dispose();
  return { ms: median(runs), threadMs: median(thread), cpuMs: median(cpu), count };
}

function gitStatusMs(ws: string): number {
  const runs = [0, 1, 2].map(() => {
    const t0 = process.hrtime.bigint();
    execFileSync("git", ["--no-optional-locks", "status", "--porcelain", "--untracked-files=all"], { cwd: ws });
    return ms(t0);
  });
  return median(runs);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join("/var/tmp", "acp-threads-bench-ledger-"));
  try {
    const line = (name: string, value: string) => console.log(`${name.padEnd(58)} ${value}`);
    const goal = (v: number, g: number, unit: string) => `goal ≤ ${g} ${unit} ${v <= g ? "met" : "MISSED"}`;
    const LABEL: Record<Mode, string> = {
      watch: "watches",
      walk: "stat walks in-process",
      "walk-worker-before": "stat walks in the worker, first walk before the turn (the design before)",
      "walk-worker": "stat walks in the worker, the agent writing at once",
      "walk-worker-later": `stat walks in the worker, the agent's first write ${ROUND_TRIP_MS} ms in`,
      "walk-worker-1-later": `the same, the files stat'ed by one thread (a one-core machine)`,
      "half-watched": "half the folders watched, half walked (worker), the agent writing at once",
      "half-watched-before":
        "half the folders watched, half walked (worker), first sync before the turn (the design before)",
      "half-watched-later": `half the folders watched, half walked (worker), the agent's first write ${ROUND_TRIP_MS} ms in`,
    };
    // the stat walks in the worker: the design before and the turn's first walk while the turn works, interleaved
    const walkAB = ["walk-worker-before", "walk-worker", "walk-worker-later", "walk-worker-1-later"] as const;
    const halfAB = ["half-watched-before", "half-watched", "half-watched-later"] as const;
    for (const [git, modes] of [
      [true, ["watch"]],
      [false, ["watch"]],
      [true, ["walk"]],
      [true, walkAB],
      [false, ["walk"]],
      [false, walkAB],
      [true, halfAB],
      [false, halfAB],
    ] as const) {
      if (ONLY && (ONLY === "floor" || !modes.some((m) => m.startsWith(ONLY)))) continue;
      const figures = await turns(dir, git, modes);
      figures.forEach((f, i) => {
        const label = `${git ? "git repo" : "plain folder"}, ${LABEL[modes[i]!]}`;
        line(
          `turn overhead, 10k files, ${label}`,
          `${f.overheadMs.toFixed(1).padStart(7)} ms wall  ${f.threadMs.toFixed(1).padStart(6)} ms thread  ${f.cpuMs.toFixed(1).padStart(6)} ms cpu  (baseline: the turn's writes ${f.baselineMs.toFixed(2)} ms; ${f.files} files recorded)  ${goal(f.overheadMs, 50, "ms")}`,
        );
        line(`  one-off folder baseline, ${label}`, `${f.setupMs.toFixed(0).padStart(7)} ms`);
      });
      const held = modes.length > 1 ? `the ${modes.length} ledgers above together` : LABEL[modes[0]!];
      const mem = figures[0]!.memMb;
      line(
        `  memory held, ${git ? "git repo" : "plain folder"}, ${held}`,
        `${mem.toFixed(1).padStart(7)} MB  ${goal(mem, 20 * modes.length, "MB")}`,
      );
    }
    if (!ONLY || ONLY === "review")
      for (const [name, value] of [...(await reviewPlacementRows(dir)), ...(await reviewRowsRows(dir))])
        line(name, value);
    if (ONLY && ONLY !== "floor") return;
    if (!existsSync(join(dir, "ws-git-watch"))) makeWorkspace(join(dir, "ws-git-watch"), true);
    for (const inWorker of [false, true]) {
      const wd = await walkerMs(join(dir, "ws-git-watch"), inWorker ? "dirs-in-worker" : "dirs");
      line(
        `git repo's folders to watch listed, ${inWorker ? "in the walk worker" : "in-process"}`,
        `${wd.ms.toFixed(1).padStart(7)} ms wall  ${wd.threadMs.toFixed(1).padStart(6)} ms thread  (${wd.count} folders, node_modules' 200 not listed; once, in the watches baseline; a plain folder's baseline walk lists them already)`,
      );
    }
    const paths = Array.from({ length: DIRS * PER_DIR }, (_, i) =>
      fileOf(join(dir, "ws-git-watch"), Math.floor(i / PER_DIR), i % PER_DIR),
    );
    for (const [name, value] of await parRows(join(dir, "ws-git-watch"), paths)) line(name, value);
    for (const stat of [true, false]) {
      const f = findAllMs(benchDirs(join(dir, "ws-git-watch"), DIRS), stat);
      line(
        `baseline: GNU find of the same ${DIRS} folders, ${stat ? "a stat per file (-printf %s %T@ %i)" : "no stat (-printf %p)"}`,
        f
          ? `${f.ms.toFixed(1).padStart(7)} ms wall  ${f.cpuMs.toFixed(1).padStart(6)} ms cpu  (${f.files} files; C: readdir${stat ? " + fstatat per file" : " alone"}; with its fork and exec)`
          : "find not available",
      );
    }
    line(
      "baseline: git status of the same 10k-file repository",
      `${gitStatusMs(join(dir, "ws-git-watch")).toFixed(1).padStart(7)} ms`,
    );
    const r = await restore100(dir);
    line(
      "restore of 100 files (plan + apply + record)",
      `${r.ms.toFixed(1).padStart(7)} ms  baseline: 100 atomic writes ${r.baselineMs.toFixed(1)} ms  ratio ${(r.ms / r.baselineMs).toFixed(2)}  ${goal(r.ms, 500, "ms")}`,
    );
  } catch (err) {
    console.error("bench failed:", err);
    process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

void main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
