/**
 * A stat walk's files stat'ed by one thread or by K (#36 item 6, stat-pool.ts), in the same run, interleaved walk
 * by walk so that a loaded machine weighs on each alike:
 * - one sync's stat walk of the 10k files in the walk worker, with `statThreads` 1 (the walk worker alone: a
 *   one-core machine), 2, … up to the machine's cores and the cap (4): wall, CPU (the whole process: every
 *   thread), and the RSS a walk worker with its helpers adds (measured one after the other, after a gc);
 * - their floors: one lstat of each file on K threads (the stat pool alone, no walk), and (candidate (b) of the
 *   brief) callback `fs.lstat` through libuv's pool, `IN_FLIGHT` at a time.
 * Used by ledger.main.ts; asserts nothing.
 */
import { lstat } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { StatPool, statHelpers } from "../src/core/ledger/stat-pool";
import { WalkWorker } from "../src/core/ledger/walk-worker-client";
import { median, ms, type Floor as Figure } from "./ledger-floor";
import { repoRoot } from "../test/fixtures/agent-env/index";

const ROUNDS = 9;
const IN_FLIGHT = 64;

const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
const script = () => join(repoRoot(), "dist", "walk-worker.js");

/** The thread counts compared: 1, 2, and the machine's (cores, at most the pool's cap), each once. */
export function threadCounts(): number[] {
  return [...new Set([1, 2, statHelpers(availableParallelism()) + 1])].sort((a, b) => a - b);
}

/** Runs each of `runs` once per round, interleaved, `ROUNDS` rounds: median wall and CPU of each. */
async function interleaved(runs: (() => unknown)[]): Promise<Figure[]> {
  const walls = runs.map(() => [] as number[]);
  const cpus = runs.map(() => [] as number[]);
  for (let r = 0; r < ROUNDS; r++)
    for (const [i, run] of runs.entries()) {
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      await run();
      walls[i]!.push(ms(t0));
      cpus[i]!.push(cpuMs(process.cpuUsage(c0)));
    }
  return runs.map((_, i) => ({ ms: median(walls[i]!), cpuMs: median(cpus[i]!) }));
}

/** A sync's walk of `ws` in a walk worker of `statThreads`: each call the difference from the one before. */
function syncWalker(ws: string, statThreads: number): { walk: () => Promise<number>; dispose: () => void } {
  const worker = new WalkWorker(script(), undefined, { statThreads });
  const client = worker.client();
  let gen: number | undefined;
  return {
    walk: async () => {
      const a = await worker.walk({
        root: ws,
        top: ws,
        prefix: "",
        maxFiles: 1e6,
        client,
        ...(gen !== undefined ? { since: gen } : {}),
      });
      gen = a?.gen;
      return a?.threads ?? 0;
    },
    dispose: () => worker.dispose(),
  };
}

function rssMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / 2 ** 20;
}

/** The RSS a walk worker of `statThreads` adds to the process once it walked `ws` three times (MB). */
async function workerRssMb(ws: string, statThreads: number): Promise<number> {
  const before = rssMb();
  const w = syncWalker(ws, statThreads);
  for (let i = 0; i < 3; i++) await w.walk();
  const after = rssMb();
  w.dispose();
  await new Promise((r) => setTimeout(r, 200)); // the threads' exit, before the next one's "before"
  return after - before;
}

/** Callback `fs.lstat` of every path, `IN_FLIGHT` at a time (libuv's thread pool: UV_THREADPOOL_SIZE, 4). */
function lstatCallbacks(paths: readonly string[]): Promise<void> {
  return new Promise((resolve) => {
    let next = 0;
    let left = paths.length;
    const one = () => {
      if (next >= paths.length) return;
      lstat(paths[next++]!, () => {
        if (--left === 0) resolve();
        else one();
      });
    };
    for (let i = 0; i < IN_FLIGHT; i++) one();
  });
}

/** The rows, as [name, figures] pairs: `ws` the bench's git workspace, `paths` its 10k files (absolute). */
export async function parRows(ws: string, paths: readonly string[]): Promise<[string, string][]> {
  const ks = threadCounts();
  const fig = (f: Figure) => `${f.ms.toFixed(1).padStart(7)} ms wall  ${f.cpuMs.toFixed(1).padStart(6)} ms cpu`;
  const rows: [string, string][] = [
    [
      `the machine's cores (os.availableParallelism())`,
      `${availableParallelism()}; threads compared: ${ks.join(", ")}`,
    ],
  ];
  const walkers = ks.map((k) => syncWalker(ws, k));
  const used = await Promise.all(walkers.map((w) => w.walk())); // the start and first listing are not a sync's
  const walks = await interleaved(walkers.map((w) => w.walk));
  for (const w of walkers) w.dispose();
  const pools = ks.map((k) => new StatPool(script(), k - 1));
  const floors = await interleaved([...pools.map((p) => () => p.statAll(paths)), () => lstatCallbacks(paths)]);
  for (const p of pools) p.dispose();
  for (const [i, k] of ks.entries()) {
    const rss = await workerRssMb(ws, k);
    rows.push([
      `one stat walk of the 10k files in the walk worker, ${k} stat thread${k > 1 ? "s" : ""}`,
      `${fig(walks[i]!)}  (a sync's, 0 changed; ${used[i]} stat'ed; the worker adds ${rss.toFixed(1)} MB RSS)`,
    ]);
  }
  for (const [i, k] of ks.entries())
    rows.push([`floor: one lstat of each of the 10k files, ${k} thread${k > 1 ? "s" : ""}`, fig(floors[i]!)]);
  rows.push([
    `floor: callback fs.lstat of each, ${IN_FLIGHT} in flight (libuv pool)`,
    `${fig(floors[pools.length]!)}  (UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? "4, the default"})`,
  ]);
  return rows;
}
