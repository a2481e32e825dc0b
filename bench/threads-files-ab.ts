/**
 * Stop 38's A/B (#36 item 2): with no usable recent-threads file, the newest thread files read on the extension
 * host's thread (threads-cold.ts: 10,000 async stats and their callbacks, the worker raced after 200 ms; the
 * baseline) or in the catalog worker before it opens the index (`filesInWorker`). Interleaved rounds, a new
 * catalog each, as the machine is and again with two busy loops next to it (both ways under the same load). Per
 * round: the first paint (first rows + whole groups), every row in (the worker's path), and the host thread's busy
 * time until the first paint (event-loop utilisation) and its longest stall (event-loop delay). Figures only.
 */
import { spawn } from "node:child_process";
import { rmSync, statSync, truncateSync } from "node:fs";
import { dirname, join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { ThreadCatalog } from "../src/core/index/thread-catalog";
import { recentThreadsPath } from "../src/core/store/change-journal";
import { ThreadStore } from "../src/core/store/thread-store";
import { pastGroups, wholeGroups } from "../src/vscode/sessions-groups";

const ROUNDS = 5;

/** Where the thread files are read: this thread (the baseline), the catalog worker first, a worker of their own. */
type Where = "here" | "catalog" | "own";
const WHERE: Record<Where, string> = {
  here: "on the host's thread (baseline)",
  catalog: "in the catalog worker, before the index",
  own: "in a worker of their own",
};

interface Round {
  paint: number;
  all: number;
  busy: number;
  stall: number;
  rows: number;
}

/** One first paint of a new catalog: its figures. */
async function paintOnce(store: ThreadStore, worker: string, where: Where): Promise<Round> {
  (globalThis as { gc?: () => void }).gc?.();
  const catalog = new ThreadCatalog(store, {
    watch: false,
    worker,
    filesInWorker: where === "catalog",
    ...(where === "own" ? { filesWorker: join(dirname(worker), "files-worker.js") } : {}),
  });
  const allIn = new Promise<void>((resolve) => catalog.onDidChange(() => resolve()));
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const elu = performance.eventLoopUtilization();
  const t0 = performance.now();
  const { threads, partialBefore } = await catalog.listFirst();
  const shown = wholeGroups(threads, (m) => m.lastActivity, partialBefore);
  pastGroups(shown, (m) => m.lastActivity);
  const paint = performance.now() - t0;
  const busy = performance.eventLoopUtilization(elu).active;
  delay.disable();
  await allIn;
  const all = performance.now() - t0;
  catalog.dispose();
  return { paint, all, busy, stall: delay.max / 1e6, rows: shown.length };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `n` busy loops (a loaded machine), stopped by the returned function. */
function busyLoops(n: number): () => void {
  const loops = Array.from({ length: n }, () => spawn(process.execPath, ["-e", "for(;;);"], { stdio: "ignore" }));
  return () => loops.forEach((p) => p.kill());
}

export async function benchFilesInWorker(home: string, worker: string): Promise<{ name: string; ms: number }[]> {
  const store = new ThreadStore(home);
  const recent = recentThreadsPath(store.layout.threadIndexDb);
  const setups = {
    "no recent-threads file": () => rmSync(recent, { force: true }),
    "a damaged recent-threads file": () => truncateSync(recent, Math.floor(statSync(recent).size / 2)),
  };
  const out: { name: string; ms: number }[] = [];
  for (const load of ["as the machine is", "two busy loops next to it"]) {
    const stop = load === "as the machine is" ? () => undefined : busyLoops(2);
    try {
      const runs = new Map<string, Round[]>();
      for (let round = 0; round < ROUNDS; round++)
        for (const [name, setup] of Object.entries(setups))
          for (const where of Object.keys(WHERE) as Where[]) {
            setup();
            const key = `${name}, ${WHERE[where]}`;
            runs.set(key, [...(runs.get(key) ?? []), await paintOnce(store, worker, where)]);
          }
      out.push({ name: `A/B, the thread files read where (${load}; medians of ${ROUNDS}):`, ms: NaN });
      for (const [key, rs] of runs) {
        const m = (k: keyof Round) => median(rs.map((r) => r[k]));
        out.push(
          { name: `  ${key}: first rows in (${m("rows")} rows in whole groups)`, ms: m("paint") },
          { name: `    the host thread busy until then`, ms: m("busy") },
          { name: `    the host thread's longest stall until then`, ms: m("stall") },
          { name: `    every row in (the worker)`, ms: m("all") },
        );
      }
    } finally {
      stop();
    }
  }
  return out;
}
