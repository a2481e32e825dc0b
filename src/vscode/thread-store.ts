/**
 * The extension's view of the thread store (src/core/store): list past threads for the sessions view, load
 * one for the panel, and the context-menu actions. Snapshots are the thread's JSONL (export copies complete
 * lines; import validates the file and refuses to overwrite an existing thread).
 */
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { AcpThreadsError } from "../core/errors";
import type { Logger } from "../core/log";
import { listThreadsIndexed } from "../core/index/threads-index";
import { ThreadStore } from "../core/store/thread-store";
import type { ThreadMetadata } from "../core/store/metadata";
import type { PastThreadSummary, SessionsFilter } from "./sessions-tree";
import type { PastThread } from "./thread-panels";
import { recordsToEvents } from "./thread-events";

export interface ThreadStoreFacade {
  readonly store: ThreadStore;
  list(filter: SessionsFilter): Promise<PastThreadSummary[]>;
  load(threadId: string): Promise<PastThread | undefined>;
  rename(threadId: string, title: string): Promise<void>;
  remove(threadId: string): Promise<void>;
  exportSnapshot(threadId: string, destPath: string): Promise<void>;
  importSnapshot(srcPath: string): Promise<string>;
  agents(): Promise<string[]>;
}

const LIST_LIMIT = 500;

const within = (cwd: string, roots: string[]) =>
  roots.length === 0 || roots.some((r) => cwd === r || cwd.startsWith(r.endsWith("/") ? r : r + "/"));

function summary(m: ThreadMetadata): PastThreadSummary {
  return {
    threadId: m.threadId,
    title: m.title ?? "(untitled)",
    agent: m.agent.name,
    agentId: m.agent.id,
    cwd: m.cwd,
    sessionId: m.agentSessionId ?? undefined,
    updatedAt: m.lastActivity,
    mode: m.mode,
  };
}

export function openThreadStore(home: string, logger?: Logger): ThreadStoreFacade {
  const store = new ThreadStore(home, { logger });
  return {
    store,
    async list(filter) {
      try {
        // The threads index (a derived SQLite cache, synced incrementally) answers without reading every file.
        const scopes = filter.cwds.length ? filter.cwds : [undefined];
        const seen = new Map<string, ThreadMetadata>();
        for (const workspace of scopes)
          for (const m of listThreadsIndexed(store, { workspace, agent: filter.agent, limit: LIST_LIMIT }))
            seen.set(m.threadId, m);
        return [...seen.values()].sort((a, b) => (a.lastActivity < b.lastActivity ? 1 : -1)).map(summary);
      } catch (err) {
        logger?.warn("threads index unavailable; reading thread files", err);
        return store
          .list()
          .filter(
            (m) =>
              within(m.cwd, filter.cwds) &&
              (!filter.agent || m.agent.name === filter.agent || m.agent.id === filter.agent),
          )
          .map(summary);
      }
    },
    async load(threadId) {
      if (!store.exists(threadId)) return undefined;
      const { metadata, records } = store.read(threadId);
      return { ...summary(metadata), events: recordsToEvents(records) };
    },
    async rename(threadId, title) {
      store.rename(threadId, title);
    },
    async remove(threadId) {
      store.delete(threadId);
    },
    async exportSnapshot(threadId, destPath) {
      store.exportJsonl(threadId, destPath);
    },
    async importSnapshot(srcPath) {
      const { metadata } = store.readPath(srcPath); // throws "corrupt" for a file that is not a thread
      if (store.exists(metadata.threadId))
        throw new AcpThreadsError("usage", `thread ${metadata.threadId} already exists; not overwriting it`);
      mkdirSync(store.threadsDir, { recursive: true, mode: 0o700 });
      const dest = store.pathFor(metadata.threadId);
      if (existsSync(dest)) throw new AcpThreadsError("usage", `${dest} exists`);
      copyFileSync(srcPath, dest);
      return metadata.threadId;
    },
    async agents() {
      return [...new Set(store.list().map((m) => m.agent.name))].sort();
    },
  };
}
