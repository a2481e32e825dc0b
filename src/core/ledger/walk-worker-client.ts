/**
 * Runs the edit ledger's stat walks in one worker thread per ledger (walk.worker.ts, bundled as
 * dist/walk-worker.js), started on the first walk and unref'd so it never keeps a process alive. The worker
 * remembers each tracker's previous walk (walk-cache.ts) and answers with what changed since, so a walk of 10k
 * files costs the caller's thread well under a millisecond instead of ~220 ms of promise work (#36 item 6).
 * When the worker cannot start or dies, the walk runs in-process (asynchronously) and the reason is logged once.
 */
import { Worker } from "node:worker_threads";
import { errorMessage } from "../errors";
import type { Logger } from "../log";
import { unpackDelta, type PackedDelta, type WalkDelta } from "./walk";

export interface WalkRequest {
  id: number;
  /** The tracker asking (`WalkWorker.client()`): the worker keeps one walk cache per client. */
  client: number;
  /** The `gen` of the last reply the client took in whole: the reply is then the difference from that walk. */
  since?: number;
  /** The workspace walked. */
  root: string;
  /** The ignore matcher's root (the repository top, or `root`), its prefix for `root`, and git's excludes. */
  top: string;
  prefix: string;
  excludes?: string[];
  maxFiles: number;
  /** Only the folders (the reply's `walk.dirs`; no file listed or stat'ed, the client's previous walk kept). */
  dirsOnly?: boolean;
  /** Walk only the folders below these (root-relative; the folders left without a watch: watch-set.ts). */
  roots?: readonly string[];
}

/** A request, or a client's cache dropped (its tracker was disposed). */
export type WalkMessage = WalkRequest | { forget: number };

export type WalkReply =
  { id: number; ok: true; gen: number; walk: PackedDelta; threads: number } | { id: number; ok: false; error: string };

export interface WalkAnswer {
  gen: number;
  walk: WalkDelta;
  /** How many threads stat'ed the walk's files (1: the walk worker alone; stat-pool.ts). */
  threads: number;
}

/** What the walk worker is started with (its `workerData`). */
export interface WalkWorkerOptions {
  /**
   * The threads that may stat a walk's files, the walk worker included (default: the machine's cores,
   * `os.availableParallelism()`); the worker caps it (walk.worker.ts). 1: the walk worker alone.
   */
  statThreads?: number;
}

let nextClient = 1;

export class WalkWorker {
  readonly #script: string;
  readonly #logger: Logger | undefined;
  readonly #opts: WalkWorkerOptions;
  #worker: Worker | undefined;
  #failed: string | undefined;
  #next = 1;
  readonly #pending = new Map<number, { resolve(w: WalkAnswer): void; reject(e: Error): void }>();

  constructor(script: string, logger?: Logger, opts: WalkWorkerOptions = {}) {
    this.#script = script;
    this.#logger = logger;
    this.#opts = opts;
  }

  /** Why walks run in-process instead, once the worker failed. */
  get failed(): string | undefined {
    return this.#failed;
  }

  /** A new client id (one per tracker). */
  client(): number {
    return nextClient++;
  }

  /** Drops a client's walk cache in the worker. */
  forget(client: number): void {
    this.#worker?.postMessage({ forget: client } satisfies WalkMessage);
  }

  /** The walk, or undefined when the worker is not available (the caller walks in-process). */
  async walk(req: Omit<WalkRequest, "id">): Promise<WalkAnswer | undefined> {
    const worker = this.#start();
    if (!worker) return undefined;
    const id = this.#next++;
    const result = new Promise<WalkAnswer>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    if (this.#pending.size === 1) worker.ref(); // a walk under way keeps the process up until it answers
    worker.postMessage({ ...req, id } satisfies WalkMessage);
    try {
      return await result;
    } catch (err) {
      if (this.#failed) return undefined; // the worker died: this walk too runs in-process
      throw err;
    }
  }

  dispose(): void {
    this.#fail("the ledger was disposed", false);
  }

  #start(): Worker | undefined {
    if (this.#failed) return undefined;
    if (this.#worker) return this.#worker;
    try {
      const w = new Worker(this.#script, { workerData: this.#opts });
      w.unref();
      w.on("message", (m: WalkReply) => this.#settle(m));
      w.on("error", (err) => this.#fail(`the walk worker failed: ${errorMessage(err)}`));
      w.on("exit", (code) => this.#fail(`the walk worker exited (code ${code})`));
      this.#worker = w;
      return w;
    } catch (err) {
      this.#fail(`the walk worker could not start: ${errorMessage(err)}`);
      return undefined;
    }
  }

  #settle(m: WalkReply): void {
    const p = this.#pending.get(m.id);
    if (!p) return;
    this.#pending.delete(m.id);
    if (!this.#pending.size) this.#worker?.unref();
    if (m.ok) p.resolve({ gen: m.gen, walk: unpackDelta(m.walk), threads: m.threads });
    else p.reject(new Error(m.error));
  }

  #fail(why: string, log = true): void {
    if (this.#failed) return;
    this.#failed = why;
    if (log) this.#logger?.warn(`edit ledger: ${why}; stat walks run in-process`);
    const w = this.#worker;
    this.#worker = undefined;
    for (const p of this.#pending.values()) p.reject(new Error(why));
    this.#pending.clear();
    if (w) void w.terminate().catch(() => undefined);
  }
}
