/**
 * The thread host's engine worker (#35 item 7): the long engine requests (a recall import, the compaction after it:
 * minutes of synchronous work on the thread that serves them) run in an engine process of the host's own
 * (host-process.ts, engine-process.worker.ts: a child process running the engine worker, core/engine/worker.ts), so
 * the host's thread keeps serving every live session's updates meanwhile. It is started on first use and ends a
 * second after its last job: a process, so its memory goes back to the system with it (a worker thread's would stay
 * in the host's RSS). A cancel reaches it; one that dies fails the request it was serving only, and the next one
 * starts another.
 *
 * The script (dist/engine-process-worker.js, and dist/engine-worker.js it runs) is found beside the host's bundle:
 * dist/cli/host.js, in the repository and in the packaged extension (extension/dist/cli/host.js), has it one up.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { EngineOp } from "../engine/requests";
import { JOB_OPS } from "../engine/worker-protocol";
import { processEngine, type ProcessEngine } from "./host-process";

/**
 * Whether the host serves `req` in its engine process (every other request it serves on its own thread: they are
 * short): the long jobs (JOB_OPS), and a recall read that first brings the
 * threads into the index (`sync`: every own thread the first time, seconds over a large data home).
 */
export function servedByWorker(req: unknown): boolean {
  const { op, sync } = (req ?? {}) as { op?: unknown; sync?: unknown };
  return JOB_OPS.has(op as EngineOp) || (sync === true && typeof op === "string" && op.startsWith("recall."));
}
/** How long the engine process is kept after its last job (a compaction follows its import at once). */
const IDLE_MS = 1000;

/** The engine process script next to the host's bundle, or undefined (a build without it). */
export function engineProcessScript(dir = __dirname): string | undefined {
  const name = "engine-process-worker.js";
  return [join(dir, name), join(dir, "..", name)].find((p) => existsSync(p));
}

/** The host's engine process, made on first use (`script` undefined: none can be, the request is refused). */
export class HostWorker {
  #engine: ProcessEngine | undefined;

  constructor(private readonly o: { home: string; script: string | undefined; worker?: string }) {}

  /** The engine, or a reason it cannot be had. */
  engine(): ProcessEngine | string {
    const { script, worker, home } = this.o;
    if (!script) return "the thread host cannot find its engine process (engine-process-worker.js beside its bundle)";
    return (this.#engine ??= processEngine({ script, home, idleMs: IDLE_MS, ...(worker ? { worker } : {}) }));
  }

  /** Cancels what the process runs and ends it (the host leaves). */
  async close(): Promise<void> {
    const e = this.#engine;
    this.#engine = undefined;
    await e?.close();
  }
}
