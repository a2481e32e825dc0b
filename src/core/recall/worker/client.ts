/**
 * The host side of the recall workers: searches go to one long-lived query worker (started on first use,
 * stopped after an idle spell), each import to a worker of its own, so a search answers while an import runs
 * (it waits at most one import batch, in the worker, never in the host). Cancel flips a shared flag the import
 * checks every few hundred lines; a worker that dies fails its pending calls and is replaced on the next one.
 */
import { Worker } from "node:worker_threads";
import type { CompactSummary } from "../compact";
import type { SyncSummary } from "../recall";
import type { ImportProgress } from "../progress";
import type { RecentOptions } from "../recent";
import type { SearchOptions } from "../search";
import type { ImportPlan, Results, WorkerData, WorkerReply, WorkerRequest } from "./protocol";
import { background } from "../../util/unexpected";

type Op = WorkerRequest["op"];
type Args<K extends Op> = Omit<Extract<WorkerRequest, { op: K }>, "id" | "op">;

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  onProgress?(p: ImportProgress): void;
}

/** One worker thread and its calls in flight. */
class Channel {
  readonly worker: Worker;
  readonly cancelFlag = new Int32Array(new SharedArrayBuffer(4));
  readonly #pending = new Map<number, Pending>();
  #next = 1;
  #dead: Error | undefined;
  #stopping: Promise<void> | undefined;

  constructor(script: string, home: string, onExit: () => void) {
    const workerData: WorkerData = { home, cancel: this.cancelFlag.buffer as SharedArrayBuffer };
    this.worker = new Worker(script, { workerData });
    this.worker.on("message", (m: WorkerReply) => {
      const p = this.#pending.get(m.id);
      if (!p) return;
      if ("progress" in m) return p.onProgress?.(m.progress);
      this.#pending.delete(m.id);
      if (m.ok) p.resolve(m.result);
      else p.reject(new Error(m.error));
    });
    const fail = (err: Error) => {
      this.#dead ??= err;
      for (const p of this.#pending.values()) p.reject(err);
      this.#pending.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => {
      fail(new Error(`the recall worker stopped (exit code ${code})`));
      onExit();
    });
  }

  /** Asks the worker to close its index and end; ends it outright if it has not after `graceMs`. */
  stop(graceMs = 5000): Promise<void> {
    return (this.#stopping ??= this.#stop(graceMs));
  }

  async #stop(graceMs: number): Promise<void> {
    if (this.#dead) return;
    const exited = new Promise<void>((resolve) => this.worker.once("exit", () => resolve()));
    this.worker.postMessage({ id: 0, op: "close" } satisfies WorkerRequest);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), graceMs)));
    if ((await Promise.race([exited, late])) === "late") await this.worker.terminate();
    clearTimeout(timer);
  }

  get busy(): boolean {
    return this.#pending.size > 0;
  }

  call<K extends Op>(op: K, args: Args<K>, onProgress?: (p: ImportProgress) => void): Promise<Results[K]> {
    if (this.#dead) return Promise.reject(this.#dead);
    const id = this.#next++;
    return new Promise<Results[K]>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress });
      this.worker.postMessage({ id, op, ...args } as WorkerRequest);
    });
  }
}

export interface ImportJob {
  /** One summary per source read; the last one has `cancelled` when the job was cancelled. */
  readonly done: Promise<SyncSummary[]>;
  /**
   * Settles after `done`, once the worker has compacted the index (a bulk import only; undefined when it did not,
   * or failed). Searches answer meanwhile; cancel() or a new import stops it at its next step.
   */
  readonly compacted: Promise<CompactSummary | undefined>;
  cancel(): void;
}

export class RecallWorkers {
  #query: Channel | undefined;
  #job: ImportJob | undefined;
  #importChannel: Channel | undefined;
  /** The channel of the last import while it still compacts the index. */
  #compacting: Channel | undefined;
  #idle: NodeJS.Timeout | undefined;
  #disposed = false;

  constructor(
    readonly script: string,
    readonly home: string,
    /** The query worker is stopped after this long without a call (its index connection and memory go with it). */
    readonly idleMs = 5 * 60_000,
  ) {}

  #queryChannel(): Channel {
    if (this.#disposed) throw new Error("recall workers disposed");
    const ch = (this.#query ??= new Channel(this.script, this.home, () => {
      if (this.#query === ch) this.#query = undefined;
    }));
    return ch;
  }

  async #ask<K extends "search" | "recent" | "status">(op: K, args: Args<K>): Promise<Results[K]> {
    const ch = this.#queryChannel();
    clearTimeout(this.#idle);
    try {
      return await ch.call(op, args);
    } finally {
      if (!ch.busy && this.#query === ch) {
        this.#idle = setTimeout(() => background(ch.stop(), "stopping an idle recall worker"), this.idleMs);
        this.#idle.unref();
      }
    }
  }

  search(query: string, opts: SearchOptions) {
    return this.#ask("search", { query, opts });
  }

  recent(opts: RecentOptions) {
    return this.#ask("recent", { opts });
  }

  status() {
    return this.#ask("status", {});
  }

  /** The running import, if any. */
  get importing(): ImportJob | undefined {
    return this.#job;
  }

  /** Starts an import in a worker of its own; while one runs, returns that one. */
  import(plan: ImportPlan, onProgress?: (p: ImportProgress) => void): ImportJob {
    if (this.#job) return this.#job;
    if (this.#disposed) throw new Error("recall workers disposed");
    // a compaction after the previous import stops at its next step and leaves the index to this one
    if (this.#compacting) Atomics.store(this.#compacting.cancelFlag, 0, 1);
    const ch = (this.#importChannel = this.#compacting = new Channel(this.script, this.home, () => undefined));
    const done = ch.call("import", { plan }, onProgress).finally(() => {
      this.#job = undefined;
      this.#importChannel = undefined;
    });
    const compacted = done
      .then((sums) =>
        sums.some((s) => s.cancelled) || this.#disposed
          ? undefined
          : ch.call("compact", { added: sums.reduce((n, s) => n + s.messages, 0) }),
      )
      .catch(() => undefined)
      .finally(() => {
        if (this.#compacting === ch) this.#compacting = undefined;
        background(ch.stop(), "stopping the import worker");
      });
    const job: ImportJob = { done, compacted, cancel: () => Atomics.store(ch.cancelFlag, 0, 1) };
    this.#job = job;
    return job;
  }

  /** Cancels a running import and stops every worker (each closes its index; ended outright after 5 s). */
  async dispose(): Promise<void> {
    this.#disposed = true;
    clearTimeout(this.#idle);
    const job = this.#job;
    job?.cancel(); // the import stops within a few hundred lines; stop() waits for it, then closes its index
    const compacting = this.#compacting;
    if (compacting) Atomics.store(compacting.cancelFlag, 0, 1);
    await Promise.all([this.#importChannel?.stop(), compacting?.stop(), this.#query?.stop()]);
    this.#query = undefined;
  }
}
