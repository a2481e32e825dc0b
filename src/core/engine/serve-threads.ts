/**
 * The thread-reading requests (requests-threads.ts): the threads index's listing, one thread's records and
 * metadata, a rename. Every thread id is resolved here, in the engine's own data home: a caller names a thread, never
 * a file.
 */
import { AcpThreadsError } from "../errors";
import { withSyncedIndex } from "../index/threads-index";
import { listRecent, writeRecent } from "../index/threads-recent";
import type { IndexedThread, ThreadQuery } from "../model/thread-list";
import { isIdOrPrefix, isThreadId } from "../model/thread-id";
import type { ThreadRead, ThreadStore } from "../store/thread-store";
import type { Handlers } from "./serve-types";

/**
 * The whole id `given` names (a whole id, or a unique prefix of at least 4 characters); a usage error for anything
 * else. `lookup: false`: a whole id is not looked up (its read says it is missing), so the window's read makes no
 * synchronous file call.
 */
export function threadIdOf(store: ThreadStore, given: string, lookup = true): string {
  if (!isIdOrPrefix(given)) throw new AcpThreadsError("usage", `'${given}' is not a thread id`);
  return isThreadId(given) && !lookup ? given : store.resolveId(given);
}

/** The words the id's lookup (resolveId) uses for a thread that is not there, whichever way it was found missing. */
const missing = (given: string) => new AcpThreadsError("not_found", `no thread '${given}'`);

/** The thread `given` names, read without a synchronous file call when it is a whole id. */
async function readNamed(store: ThreadStore, given: string): Promise<ThreadRead & { threadId: string }> {
  const threadId = threadIdOf(store, given, false);
  const read = await store.readAsync(threadId);
  if (!read) throw missing(given);
  return { ...read, threadId };
}

const ARCHIVED: readonly unknown[] = ["exclude", "only", "include"];

export const threadsOps: Handlers<"threads.list" | "threads.read" | "threads.meta" | "threads.rename"> = {
  "threads.list": async ({ store }, { op: _op, rescan, ...query }) => {
    if (query.archived !== undefined && !ARCHIVED.includes(query.archived))
      throw new AcpThreadsError(
        "usage",
        `engine request threads.list: 'archived' must be one of ${ARCHIVED.join(", ")}`,
      );
    return listThreads(store, query, rescan === true);
  },
  "threads.read": async ({ store }, req) => {
    const { threadId, ...read } = await readNamed(store, req.threadId);
    const records = read.records.slice(req.from ?? 0);
    const next = read.records.length;
    return { threadId, metadata: read.metadata, records, next, offset: read.endOffset, warnings: read.warnings };
  },
  "threads.meta": async ({ store }, req) => (await readNamed(store, req.threadId)).metadata,
  "threads.rename": async ({ store }, req) => {
    // a whole id is not looked up first: the window renames without listing the threads folder
    const threadId = threadIdOf(store, req.threadId, false);
    try {
      await store.renameAsync(threadId, req.title);
    } catch (err) {
      if (err instanceof AcpThreadsError && err.code === "not_found") throw missing(req.threadId);
      throw err;
    }
    // the title the rename stored (the store trims it; blank clears it), without reading the file back
    return { threadId, title: req.title.trim() || null };
  },
};

/**
 * The threads `query` names: from the recent-threads file while the disk is as it saw it and it holds the answer
 * (no SQLite: #36's warm `threads list`), else from the synced index, which then writes the file again.
 */
async function listThreads(store: ThreadStore, query: ThreadQuery, rescan: boolean): Promise<IndexedThread[]> {
  const recent = rescan ? undefined : await listRecent(store, query);
  if (recent && "threads" in recent) return recent.threads;
  store.markInterrupted();
  // a state taken racily is verified once by stat-ing every file (what a racy folder mtime cannot tell)
  const full = rescan || recent?.refused === "racy";
  return withSyncedIndex(
    store,
    (index) => {
      const threads = index.list(query);
      try {
        if (recent?.refused !== "short") writeRecent(index, store);
      } catch {
        // only a cache: this list has its answer, the next one tries again
      }
      return threads;
    },
    { full },
  );
}
