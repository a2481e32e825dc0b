/**
 * The long-day bench's body, loaded BY THE EXTENSION HOST (code-server) as extensionTestsPath: VS Code calls
 * run(). A simulated working day through the real extension: LONG_DAY_SESSIONS sessions of the long-day fake
 * agent (test/fixtures/fake-agents/long-day-agent.main.ts), three streaming at a time, each with its panel open,
 * together LONG_DAY_UPDATES updates, LONG_DAY_TOOLS tool calls, LONG_DAY_TERMINALS terminals and LONG_DAY_READS
 * reads of 100 KB files; every session is closed when its work is done. The day's agents flood (as fast as the host
 * takes); then three agents stream at a model's pace (paced.ts). Figures (host RSS after each session, event-loop
 * delay in both, GC pauses) go to ACP_HOST_RESULTS, which test/host/run.mjs prints; no figure is asserted.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Session } from "node:inspector/promises";
import { setFlagsFromString, writeHeapSnapshot } from "node:v8";
import { runInNewContext } from "node:vm";
import * as vscode from "vscode";
import { api, repoRoot, sleep, workspaceRoot } from "../../test/host/suite/helpers";
import { batches, line, sample, table, type Sample } from "./breakdown";
import { GcWatch } from "./gc-watch";
import { daySession, PACED_RATE, PACED_SECONDS, pacedPhase } from "./paced";

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SESSIONS = num("LONG_DAY_SESSIONS", 20);
const UPDATES = num("LONG_DAY_UPDATES", 200_000);
const TOOLS = num("LONG_DAY_TOOLS", 5_000);
const TERMINALS = num("LONG_DAY_TERMINALS", 500);
const READS = num("LONG_DAY_READS", 2_000);
const TURNS = num("LONG_DAY_TURNS_PER_SESSION", 4);
const PARALLEL = 3;
/** After the day, how long to wait for VS Code's terminal list to drain before the last sample. */
const SETTLE_MS = num("LONG_DAY_SETTLE_MS", 60_000);
/** A folder: a heap snapshot after each batch of PARALLEL sessions, the CPU profiles of the streaming and paced parts. */
const PROFILE_DIR = process.env.LONG_DAY_PROFILE_DIR;

const out = (s: string) => {
  console.log(s);
  if (process.env.ACP_HOST_RESULTS) appendFileSync(process.env.ACP_HOST_RESULTS, s + "\n");
};
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
/** A full GC before each sample, so the curve shows what is retained (the host runs without --expose-gc). */
const gc = ((globalThis as { gc?: () => void }).gc ??
  (() => {
    setFlagsFromString("--expose-gc");
    return runInNewContext("gc") as () => void;
  })()) as (() => void) | undefined;

async function configure(): Promise<string> {
  const dir = join(workspaceRoot(), "long-day");
  mkdirSync(dir, { recursive: true });
  const line = "const value = computeSomethingUseful(input, options); // a line of a 100 KB source file\n";
  for (let i = 0; i < 64; i++) writeFileSync(join(dir, `read-${i}.txt`), line.repeat(Math.ceil(100_000 / line.length)));
  const cfg = vscode.workspace.getConfiguration("acpThreads");
  const agentPath = join(repoRoot(), "dist-test/fixtures/fake-agents/long-day-agent.main.js");
  await cfg.update(
    "agents",
    { day: { command: process.execPath, args: [agentPath], env: { ELECTRON_RUN_AS_NODE: "1" }, displayName: "Day" } },
    vscode.ConfigurationTarget.Global,
  );
  await cfg.update("permissionMode", "approve-all", vscode.ConfigurationTarget.Global);
  return dir;
}

/** Share `total` over `parts` (the first ones get the remainder). */
const share = (total: number, parts: number, i: number) => Math.floor(total / parts) + (i < total % parts ? 1 : 0);

const threadIds: string[] = [];

/** How many objects the long-lived structures hold now (next to the memory figures). */
async function counts(): Promise<Record<string, number>> {
  const { hub } = await api();
  let tailEvents = 0;
  for (const id of threadIds) tailEvents += hub.live.get(id)?.events.length ?? 0;
  return {
    liveSessions: hub.live.size,
    tailEvents,
    catalogThreads: hub.past.catalog.size,
    heldTerminals: hub.terminals.held,
    tabs: vscode.window.tabGroups.all.reduce((n, g) => n + g.tabs.length, 0),
    // thread panels our side holds open (one per thread) next to the tabs VS Code lists
    panels: threadIds.filter((id) => hub.panels.get(id)).length,
    terminals: vscode.window.terminals.length,
  };
}

async function oneSession(index: number, dir: string): Promise<void> {
  const { session, stop } = await daySession(threadIds);
  const parts = SESSIONS * TURNS;
  for (let t = 0; t < TURNS; t++) {
    const k = index * TURNS + t;
    const args = [UPDATES, TOOLS, TERMINALS, READS].map((n) => share(n, parts, k));
    await session.prompt(`work ${args.join(" ")} ${dir}`);
  }
  await stop();
}

export async function run(): Promise<void> {
  try {
    const dir = await configure();
    await api();
    out(
      `long day: ${SESSIONS} sessions (${PARALLEL} streaming at a time, ${TURNS} turns each), ${UPDATES} updates, ` +
        `${TOOLS} tool calls, ${TERMINALS} terminals, ${READS} reads of 100 KB files`,
    );
    // baseline: the idle extension host, same process, same run
    const idle = monitorEventLoopDelay({ resolution: 5 });
    idle.enable();
    await sleep(3000);
    idle.disable();
    gc?.();
    const base = sample(await counts());
    out(`  baseline: ${line(base)}`);
    const rss0 = process.memoryUsage().rss;
    let profiler: Session | undefined;
    if (PROFILE_DIR) {
      mkdirSync(PROFILE_DIR, { recursive: true });
      writeHeapSnapshot(join(PROFILE_DIR, "batch-0.heapsnapshot"));
      profiler = new Session();
      profiler.connect();
      await profiler.post("Profiler.enable");
      await profiler.post("Profiler.setSamplingInterval", { interval: 1000 });
      await profiler.post("Profiler.start");
      // the allocation profile of the same part: who allocates (sampled every 32 KB, kept or collected)
      await profiler.post("HeapProfiler.enable");
      await profiler.post("HeapProfiler.startSampling", {
        samplingInterval: 32 * 1024,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    }
    const busy = monitorEventLoopDelay({ resolution: 5 });
    const gcs = new GcWatch();
    busy.enable();
    gcs.on = true;
    const started = Date.now();
    const curve: { done: number; rss: number; heap: number; at: Sample }[] = [];
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < SESSIONS) {
        const i = next++;
        await oneSession(i, dir);
        // the bench's own full GC and heap snapshot stall the loop: not counted in the event-loop delay
        busy.disable();
        gcs.on = false;
        gc?.();
        const m = process.memoryUsage();
        if (PROFILE_DIR && (done + 1) % PARALLEL === 0) {
          writeHeapSnapshot(join(PROFILE_DIR, `batch-${(done + 1) / PARALLEL}.heapsnapshot`));
        }
        // enabled again once the loop's clock moved past the stall (the timer restarts from the loop's time)
        await new Promise((r) => setImmediate(r));
        busy.enable();
        gcs.on = true;
        const at = sample(await counts());
        curve.push({ done: ++done, rss: m.rss, heap: m.heapUsed, at });
        out(`  after session ${String(done).padStart(2)}: ${line(at)}`);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    busy.disable();
    gcs.on = false;
    if (profiler) {
      const { profile } = await profiler.post("Profiler.stop");
      writeFileSync(join(PROFILE_DIR!, "streaming.cpuprofile"), JSON.stringify(profile));
      const heap = await profiler.post("HeapProfiler.stopSampling");
      writeFileSync(join(PROFILE_DIR!, "streaming.heapprofile"), JSON.stringify(heap.profile));
      profiler.disconnect();
    }
    const warm = curve[Math.min(curve.length - 1, Math.max(0, Math.ceil(SESSIONS / 5) - 1))]!;
    const end = curve.at(-1)!;
    const p99 = (h: ReturnType<typeof monitorEventLoopDelay>) => h.percentile(99) / 1e6;
    out(`  curve, per batch of ${PARALLEL} sessions (change since the batch before):`);
    for (const row of batches(
      base,
      curve.map((c) => c.at),
      PARALLEL,
    ))
      out(row);
    out("  breakdown (baseline: before the first session, same run):");
    for (const row of table(base, warm.at, end.at)) out(row);
    out(`  wall time ${((Date.now() - started) / 1000).toFixed(0)} s`);
    out(
      `  host RSS: start ${mb(rss0)} MB, after warm-up (${warm.done} sessions) ${mb(warm.rss)} MB, end ${mb(end.rss)} MB`,
    );
    out(
      `  RSS growth after warm-up ${mb(end.rss - warm.rss)} MB (target ≤ 100 MB, flat); end / warm-up ${(end.rss / warm.rss).toFixed(2)}×; ` +
        `heap end / warm-up ${(end.heap / warm.heap).toFixed(2)}×`,
    );
    out(
      `  event-loop delay p99: ${p99(busy).toFixed(1)} ms with ${PARALLEL} agents flooding (as fast as the host takes), ` +
        `idle baseline ${p99(idle).toFixed(1)} ms (${(p99(busy) / p99(idle)).toFixed(2)}×); max ${(busy.max / 1e6).toFixed(0)} ms`,
    );
    out(`  GC pauses while streaming (not the bench's own): ${gcs.summary(Date.now() - started)}`);
    gcs.dispose();
    if (PACED_SECONDS > 0) {
      const paced = await pacedPhase(
        dir,
        [UPDATES, TOOLS, TERMINALS, READS],
        threadIds,
        PROFILE_DIR && join(PROFILE_DIR, "paced.cpuprofile"),
      );
      out(
        `  event-loop delay p99 with 3 agents streaming at ${PACED_RATE} updates/s each (${paced.updates} updates in ` +
          `${paced.seconds.toFixed(0)} s): ${paced.p99.toFixed(1)} ms (target ≤ 20 ms), idle baseline ` +
          `${p99(idle).toFixed(1)} ms (${(paced.p99 / p99(idle)).toFixed(2)}×); max ${paced.max.toFixed(0)} ms`,
      );
    }
    // after the day: does VS Code's terminal list drain (it drops a disposed terminal once the workbench
    // confirms) and does the RSS step go with it? Waits up to SETTLE_MS, then samples again.
    const settleFrom = Date.now();
    while (Date.now() - settleFrom < SETTLE_MS && vscode.window.terminals.length > (await counts()).heldTerminals)
      await sleep(500);
    gc?.();
    await sleep(200);
    gc?.();
    out(
      `  settled after ${((Date.now() - settleFrom) / 1000).toFixed(0)} s (VS Code's terminal list drained or ` +
        `${SETTLE_MS / 1000} s): ${line(sample(await counts()))}`,
    );
    out("1 passed, 0 failed");
  } catch (err) {
    out(`FAIL - long day: ${(err as Error).stack ?? err}`);
    out("0 passed, 1 failed");
    throw err;
  }
}
