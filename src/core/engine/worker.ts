/**
 * The engine off this thread (#35 item 7): the same engine requests as `localEngine` (core/engine/local.ts) and
 * `HostConnection.engine`, served by the engine's dispatcher in a `worker_threads` worker (engine.worker.ts), for a
 * front end whose thread must never wait on the disk (the window's extension host: its recall panel, `@` mentions,
 * history import).
 *
 * Memory stays bounded: one worker answers the requests (started on first use, stopped after `idleMs` without
 * one), and a long job (a recall import, the compaction after it: JOB_OPS) gets a worker of its own, stopped once
 * it is idle, so a search answers while an import runs. A call's AbortSignal cancels it in the worker (between its
 * steps, or at an import's next cancel check): the reply is then an `interrupted` error. A worker that dies fails
 * its calls in flight and is replaced on the next call; `close` cancels what runs and ends both workers.
 */
import { MessageChannel, Worker, type MessagePort } from "node:worker_threads";
import { AcpThreadsError } from "../errors";
import { background } from "../util/unexpected";
import type { Engine, EngineCallOptions, EngineProgress, EngineReplies, EngineRequest } from "./requests";
import {
  JOB_OPS,
  replyError,
  type EngineWorkerCall,
  type EngineWorkerData,
  type EngineWorkerReply,
} from "./worker-protocol";

/** How long an idle job worker is kept (a compaction follows its import at once). */
const JOB_IDLE_MS = 1000;

export interface WorkerEngineOptions {
  /** The bundled worker script (dist/engine-worker.js). */
  script: string;
  /** The data home. */
  home: string;
  /** The requests' worker is stopped after this long without a call (its index and memory go with it). */
  idleMs?: number;
}

export interface WorkerEngine extends Engine {
  /** Cancels the calls in flight and ends the workers (each closes its index; ended outright after `graceMs`). */
  close(graceMs?: number): Promise<void>;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  onProgress?(p: EngineProgress): void;
}

/** One worker and its calls in flight. */
class Lane {
  readonly #worker: Worker;
  readonly #cancels: MessagePort;
  readonly #pending = new Map<number, Pending>();
  #next = 1;
  #dead: Error | undefined;
  #stopping: Promise<void> | undefined;

  constructor(script: string, home: string, onExit: () => void) {
    const { port1, port2 } = new MessageChannel();
    this.#cancels = port1;
    const workerData: EngineWorkerData = { home, cancels: port2 };
    this.#worker = new Worker(script, { workerData, transferList: [port2] });
    this.#worker.on("message", (m: EngineWorkerReply) => {
      const p = this.#pending.get(m.id);
      if (!p) return;
      if (m.t === "progress") return p.onProgress?.(m.progress);
      this.#pending.delete(m.id);
      if (m.t === "reply") p.resolve(m.reply);
      else p.reject(replyError(m));
    });
    const fail = (err: Error) => {
      this.#dead ??= err;
      for (const p of this.#pending.values()) p.reject(err);
      this.#pending.clear();
    };
    this.#worker.on("error", fail);
    this.#worker.on("exit", (code) => {
      fail(new Error(`the engine worker stopped (exit code ${code})`));
      this.#cancels.close();
      onExit();
    });
  }

  get busy(): boolean {
    return this.#pending.size > 0;
  }

  call(req: EngineRequest, opts: EngineCallOptions): Promise<unknown> {
    if (this.#dead) return Promise.reject(this.#dead);
    if (this.#stopping) return Promise.reject(new AcpThreadsError("interrupted", "the engine worker is closing"));
    const id = this.#next++;
    const cancel = () => this.#cancels.postMessage(id);
    opts.signal?.addEventListener("abort", cancel, { once: true });
    return new Promise<unknown>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, onProgress: opts.onProgress });
      const call: EngineWorkerCall = { t: "call", id, req, progress: opts.onProgress !== undefined };
      this.#worker.postMessage(call);
    }).finally(() => opts.signal?.removeEventListener("abort", cancel));
  }

  /** Asks the worker to cancel its calls, close its index and end; ends it outright if it has not after `graceMs`. */
  stop(graceMs = 5000): Promise<void> {
    return (this.#stopping ??= this.#stop(graceMs));
  }

  async #stop(graceMs: number): Promise<void> {
    if (this.#dead) return;
    const exited = new Promise<void>((resolve) => this.#worker.once("exit", () => resolve()));
    this.#worker.postMessage({ t: "close" } satisfies EngineWorkerCall);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), graceMs)));
    if ((await Promise.race([exited, late])) === "late") await this.#worker.terminate();
    clearTimeout(timer);
  }
}

/** The engine in a worker thread of this process. */
export function workerEngine(o: WorkerEngineOptions): WorkerEngine {
  const lanes: { requests?: Lane; job?: Lane } = {};
  const idle: { requests?: NodeJS.Timeout; job?: NodeJS.Timeout } = {};
  let closed = false;

  const lane = (kind: "requests" | "job"): Lane => {
    const made = (lanes[kind] ??= new Lane(o.script, o.home, () => {
      if (lanes[kind] === made) lanes[kind] = undefined;
    }));
    return made;
  };

  const call = async (req: EngineRequest, opts: EngineCallOptions = {}): Promise<unknown> => {
    if (opts.signal?.aborted)
      throw new AcpThreadsError("interrupted", "the engine request was cancelled before it started");
    if (closed) throw new AcpThreadsError("interrupted", "the engine worker is closed");
    const kind = JOB_OPS.has(req.op) ? "job" : "requests";
    const ln = lane(kind);
    clearTimeout(idle[kind]);
    try {
      return await ln.call(req, opts);
    } finally {
      if (!ln.busy && lanes[kind] === ln) {
        const ms = kind === "job" ? JOB_IDLE_MS : (o.idleMs ?? 5 * 60_000);
        idle[kind] = setTimeout(() => {
          if (lanes[kind] === ln) lanes[kind] = undefined;
          background(ln.stop(), "stopping an idle engine worker");
        }, ms);
        idle[kind].unref();
      }
    }
  };

  return {
    call: <R extends EngineRequest>(req: R, opts?: EngineCallOptions) =>
      call(req, opts) as Promise<EngineReplies[R["op"]]>,
    close: async (graceMs?: number) => {
      closed = true;
      clearTimeout(idle.requests);
      clearTimeout(idle.job);
      const all = [lanes.requests, lanes.job];
      lanes.requests = lanes.job = undefined;
      await Promise.all(all.map((l) => l?.stop(graceMs)));
    },
  };
}
