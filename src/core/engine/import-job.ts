/**
 * Recall imports as a front end runs them on any `Engine` (the window: the engine worker, core/engine/worker.ts):
 * one import at a time (asking again while one runs returns that one), the compaction after a bulk import as upkeep
 * (`done` settles first; searches answer meanwhile), and a new import stops the previous one's compaction. Only
 * engine requests (requests-recall-index.ts): the engine plans and does the work.
 */
import { AcpThreadsError } from "../errors";
import type { Engine, EngineProgress, EngineReplies, EngineRequest } from "./requests";

/** What one import reads: our own threads, then Codex rollouts, then Claude Code transcripts. */
export type ImportPlan = Omit<Extract<EngineRequest, { op: "recall.import" }>, "op">;
export type SyncSummary = EngineReplies["recall.import"][number];
export type ImportProgress = Extract<EngineProgress, { t: "import" }>["progress"];
export type CompactSummary = NonNullable<EngineReplies["recall.compact"]["compacted"]>;

export interface ImportJob {
  /** One summary per source read; the last one has `cancelled` when the job was cancelled. */
  readonly done: Promise<SyncSummary[]>;
  /** Settles after `done`, once the index is compacted (a bulk import only; undefined when it was not, or failed). */
  readonly compacted: Promise<CompactSummary | undefined>;
  cancel(): void;
}

export class RecallImports {
  #job: ImportJob | undefined;
  #compacting: AbortController | undefined;
  #closed = false;

  constructor(private readonly engine: Engine) {}

  /** The running import, if any. */
  get importing(): ImportJob | undefined {
    return this.#job;
  }

  /** Starts an import; while one runs, returns that one. */
  import(plan: ImportPlan, onProgress?: (p: ImportProgress) => void): ImportJob {
    if (this.#job) return this.#job;
    this.#compacting?.abort(); // the previous import's compaction leaves the index to this one
    const cancel = new AbortController();
    const done = this.engine
      .call(
        { op: "recall.import", ...plan },
        { signal: cancel.signal, onProgress: (p) => p.t === "import" && onProgress?.(p.progress) },
      )
      .catch((err: unknown) => {
        // cancelled before it read anything: nothing was read
        if (err instanceof AcpThreadsError && err.code === "interrupted" && cancel.signal.aborted) return [];
        throw err;
      })
      .finally(() => (this.#job = undefined));
    const compacting = (this.#compacting = new AbortController());
    const compacted = done
      .then(async (sums) => {
        if (!sums.length || sums.some((s) => s.cancelled) || this.#closed) return undefined;
        const added = sums.reduce((n, s) => n + s.messages, 0);
        return (await this.engine.call({ op: "recall.compact", added }, { signal: compacting.signal })).compacted;
      })
      .catch(() => undefined)
      .finally(() => {
        if (this.#compacting === compacting) this.#compacting = undefined;
      });
    const job: ImportJob = { done, compacted, cancel: () => cancel.abort() };
    this.#job = job;
    return job;
  }

  /** Cancels a running import and its compaction (closing the engine: no new compaction starts). */
  close(): void {
    this.#closed = true;
    this.#job?.cancel();
    this.#compacting?.abort();
  }
}
