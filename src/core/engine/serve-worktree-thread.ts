/**
 * `worktree.thread` (requests-worktree-thread.ts): the thread a `worktrees` command names, resolved here, with the
 * worktree its record keeps and its live writer, if another process holds it.
 */
import { liveWriter } from "../store/file-lock";
import type { Handlers } from "./serve-types";
import { threadIdOf } from "./serve-threads";
import { worktreeOf } from "./serve-worktree-of";

export const worktreeThreadOps: Handlers<"worktree.thread"> = {
  "worktree.thread": ({ store }, req) => {
    const threadId = threadIdOf(store, req.thread);
    const worktree = worktreeOf(store, threadId);
    const owner = store.handleOf(threadId)?.closed === false ? undefined : liveWriter(store.pathFor(threadId));
    return Promise.resolve({ threadId, worktree, heldBy: owner?.pid ?? null });
  },
};
