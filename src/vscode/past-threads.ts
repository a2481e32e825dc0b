/**
 * Past threads as the sessions view and the thread panel show them: summaries from the in-memory thread catalog
 * (loaded once from the threads index, then kept current from the store's events and a folder watcher: a refresh
 * of an unchanged tree touches no file), the thread files when the index is unavailable, and one thread's history
 * as panel events, read through the engine's requests. Read-only.
 */
import { localEngine } from "../core/engine/local";
import type { Engine } from "../core/engine/requests";
import { AcpThreadsError } from "../core/errors";
import type { Logger } from "../core/log";
import { ThreadCatalog } from "../core/index/thread-catalog";
import type { ThreadQuery } from "../core/model/thread-list";
import type { ThreadStore } from "../core/store/thread-store";
import type { ThreadMetadata } from "../core/model/metadata";
import { recordsToEvents } from "../core/thread/record-events";
import { handedOffFrom } from "../core/handoff/lineage";
import { wholeGroups } from "./sessions-groups";
import type { PastThreadSummary, SessionsFilter } from "./sessions-tree";
import { displayTitle } from "./thread-title";
import type { PastThread } from "./thread-panels";

function summary(m: ThreadMetadata): PastThreadSummary {
  return {
    threadId: m.threadId,
    title: displayTitle(m.title),
    agent: m.agent.name,
    agentId: m.agent.id,
    cwd: m.cwd,
    sessionId: m.agentSessionId ?? undefined,
    updatedAt: m.lastActivity,
    mode: m.mode,
    handoff: { from: handedOffFrom(m) ?? undefined, to: m.handedOffTo ?? [] },
    ...(m.worktree ? { worktree: m.worktree } : {}),
    status: m.status,
  };
}

/** The catalog query of the view's filter (the workspace aside). */
function queryOf(f: SessionsFilter): ThreadQuery {
  return { agent: f.agent, origin: f.origin, status: f.status, archived: f.archived ? "only" : "exclude" };
}

export class PastThreads {
  readonly #engine: Engine;
  readonly #logger: Logger | undefined;
  readonly catalog: ThreadCatalog;
  /** Fires (throttled) when a thread file changed: the tree lists again. */
  readonly onDidChange: ThreadCatalog["onDidChange"];

  /**
   * `catalogWorker`: dist/catalog-worker.js, so the catalog's first load runs off the host's thread; `engine`: the
   * window's (over the same store), which reads a thread (default: one over `store`).
   */
  constructor(store: ThreadStore, logger?: Logger, opts: { catalogWorker?: string; engine?: Engine } = {}) {
    this.#engine = opts.engine ?? localEngine({ store });
    this.#logger = logger;
    this.catalog = new ThreadCatalog(store, { logger, worker: opts.catalogWorker });
    this.onDidChange = this.catalog.onDidChange;
  }

  /** A thread's metadata as last read (no file read); undefined until the first list, or when unknown. */
  metadata(threadId: string): ThreadMetadata | undefined {
    return this.catalog.get(threadId);
  }

  async list(filter: SessionsFilter): Promise<PastThreadSummary[]> {
    try {
      const scopes = filter.cwds.length ? filter.cwds : [undefined];
      const seen = new Map<string, ThreadMetadata>();
      let partialBefore: string | undefined;
      for (const workspace of scopes) {
        // every match: the tree shows them a page at a time (sessions-groups.ts); the first paint from the first
        // load's newest rows, the others when they arrive (the catalog's change event lists again; #36)
        const first = await this.catalog.listFirst({ workspace, ...queryOf(filter) });
        for (const m of first.threads) seen.set(m.threadId, m);
        // the scopes' lists may meet the first load at different points: the newest bound holds for all
        const bound = first.partialBefore;
        if (bound !== undefined && (partialBefore === undefined || bound > partialBefore)) partialBefore = bound;
      }
      const threads = [...seen.values()].sort((a, b) => (a.lastActivity < b.lastActivity ? 1 : -1)).map(summary);
      return wholeGroups(threads, (t) => t.updatedAt, partialBefore);
    } catch (err) {
      this.#logger?.warn("threads index unavailable; reading thread files", err);
      // the engine reads every thread file (store.list) and keeps those of the view's folders and filter
      return (await this.#engine.call({ op: "threads.scan", roots: filter.cwds, ...queryOf(filter) })).map(summary);
    }
  }

  /**
   * One thread's history as panel events, read through the engine (`threads.read` of a whole id makes no synchronous
   * file call); undefined when it is gone.
   */
  async load(threadId: string): Promise<PastThread | undefined> {
    const read = await this.#engine
      .call({ op: "threads.read", threadId })
      .catch((err: unknown) =>
        err instanceof AcpThreadsError && err.code === "not_found" ? undefined : Promise.reject(err),
      );
    return read && { ...summary(read.metadata), events: recordsToEvents(read.records), offset: read.offset };
  }

  async agents(): Promise<string[]> {
    return [...new Set((await this.catalog.list()).map((m) => m.agent.name))].sort();
  }

  dispose(): void {
    this.catalog.dispose();
  }
}
