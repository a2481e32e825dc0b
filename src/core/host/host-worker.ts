/**
 * The thread host's engine worker (#35 item 7): the long engine requests (a recall import, the compaction after it:
 * minutes of synchronous work on the thread that serves them) run in a `worker_threads` worker of the host's own
 * (core/engine/worker.ts), so the host's thread keeps serving every live session's updates meanwhile. The worker is
 * started on first use and ends a second after its last job (the host's idle memory stays the host's own); a
 * cancel reaches it; a worker that dies fails the request it was serving only, and the next one starts another.
 *
 * The worker script (dist/engine-worker.js) is found beside the host's bundle: dist/cli/host.js, in the repository
 * and in the packaged extension (extension/dist/cli/host.js), has it one folder up.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { EngineOp } from "../engine/requests";
import { workerEngine, type WorkerEngine } from "../engine/worker";

/** The ops the host serves in its worker; every other one it serves on its own thread (they are short). */
export const WORKER_OPS: ReadonlySet<EngineOp> = new Set<EngineOp>(["recall.import", "recall.compact"]);

/** The engine worker script next to the host's bundle, or undefined (a build without it). */
export function engineWorkerScript(dir = __dirname): string | undefined {
  return [join(dir, "engine-worker.js"), join(dir, "..", "engine-worker.js")].find((p) => existsSync(p));
}

/** The host's worker engine, made on first use (`script` undefined: none can be, the request is refused). */
export class HostWorker {
  #engine: WorkerEngine | undefined;

  constructor(private readonly o: { home: string; script: string | undefined }) {}

  /** The worker engine, or a reason it cannot be had. */
  engine(): WorkerEngine | string {
    if (!this.o.script) return "the thread host cannot find its engine worker (engine-worker.js beside its bundle)";
    return (this.#engine ??= workerEngine({ script: this.o.script, home: this.o.home }));
  }

  /** Cancels what the worker runs and ends it (the host leaves). */
  async close(): Promise<void> {
    const e = this.#engine;
    this.#engine = undefined;
    await e?.close();
  }
}
