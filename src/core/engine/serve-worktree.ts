/**
 * The engine requests of a thread's worktree (core/engine/requests-worktree.ts). The worktree is always the one the
 * thread's record keeps; discarding checks it is one of ours (core/worktree/discard.ts) before anything is removed.
 */
import type { WorktreeRef } from "../model/records";
import { GONE_WORKTREE, type WorktreeState } from "../model/worktree";
import { checkBranchName, commitToBranch } from "../worktree/commit-branch";
import { discardWorktree } from "../worktree/discard";
import { worktreeState } from "../worktree/state";
import { AcpThreadsError } from "../errors";
import { liveWriter } from "../store/file-lock";
import type { Handlers } from "./serve-types";
import { worktreeOf } from "./serve-worktree-of";

/** The state, or a gone folder's when git could not read it. */
const stateOf = (ref: WorktreeRef): Promise<WorktreeState> =>
  worktreeState(ref).catch(() => ({ ...GONE_WORKTREE, files: [] }));

export const worktreeOps: Handlers<
  "worktree.list" | "worktree.state" | "worktree.discard" | "worktree.branch-name" | "worktree.commit"
> = {
  "worktree.list": ({ store }) =>
    Promise.all(
      store
        .list()
        .filter((m) => m.worktree)
        .map(async (m) => ({
          threadId: m.threadId,
          agent: m.agent.id,
          title: m.title,
          worktree: m.worktree!,
          state: await stateOf(m.worktree!),
        })),
    ),
  "worktree.state": ({ store }, req) => stateOf(worktreeOf(store, req.threadId)),
  "worktree.discard": async ({ store }, req) => {
    const ref = worktreeOf(store, req.threadId);
    // a session writing the thread elsewhere (another process, or the host's run) works in that folder: never
    // removed under it; one this store holds is the caller's own (the window closes it first)
    const owner = store.handleOf(req.threadId)?.closed === false ? undefined : liveWriter(store.pathFor(req.threadId));
    if (owner)
      throw new AcpThreadsError(
        "usage",
        `thread ${req.threadId} is open in process ${owner.pid} (an editor or a run); discard its worktree once its session is closed`,
      );
    const result = await discardWorktree(ref);
    store.patchMetadata(req.threadId, { worktree: null });
    return { ...result, path: ref.path };
  },
  "worktree.branch-name": async ({ store }, req) => ({
    branch: await checkBranchName(worktreeOf(store, req.threadId).repo, req.name),
  }),
  "worktree.commit": ({ store }, req) => commitToBranch(worktreeOf(store, req.threadId), req.branch, req.message),
};
