/**
 * `threads.archive` (requests-threads.ts, #36): archived is a `meta_patch` in the thread's own file (the index is
 * rebuilt from it). The engine picks the threads, from the ids it resolves or the filters, and patches each.
 */
import { AcpThreadsError, errorMessage } from "../errors";
import { withSyncedIndex } from "../index/threads-index";
import type { IndexedThread } from "../model/thread-list";
import type { Handlers } from "./serve-types";
import { threadIdOf } from "./serve-threads";

export const threadsArchiveOps: Handlers<"threads.archive"> = {
  "threads.archive": ({ store }, req) => {
    const { archived, ids, olderThan, dryRun, op: _op, ...query } = req;
    const filtered = olderThan || query.agent || query.origin || query.status || query.worktree;
    if (!ids?.length && !filtered)
      throw new AcpThreadsError(
        "usage",
        `name the threads to ${archived ? "" : "un"}archive (IDs) or filter them (--older-than, --agent, --origin, --status, --worktree)`,
      );
    const picked: IndexedThread[] = ids?.length
      ? withSyncedIndex(store, (index) => ids.map((a) => index.get(threadIdOf(store, a))!).filter(Boolean))
      : withSyncedIndex(store, (index) => index.list({ ...query, before: olderThan }));
    const todo = picked.filter((t) => t.archived !== archived);
    const done: string[] = [];
    const failed: { id: string; error: string }[] = [];
    if (dryRun) return { todo, done, failed };
    for (const t of todo) {
      try {
        store.patchMetadata(t.id, { archived });
        done.push(t.id);
      } catch (err) {
        failed.push({ id: t.id, error: errorMessage(err) });
      }
    }
    return { todo, done, failed };
  },
};
