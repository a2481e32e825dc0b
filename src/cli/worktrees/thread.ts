/** The thread a `worktrees` subcommand names, its worktree, and the guard against touching a thread in use. */
import { AcpThreadsError } from "../../core/errors";
import type { WorktreeRef } from "../../core/model/records";
import { liveWriter } from "../../core/store/file-lock";
import type { ThreadStore } from "../../core/store/thread-store";

export interface WorktreeThread {
  threadId: string;
  worktree: WorktreeRef;
}

export function worktreeThread(store: ThreadStore, idOrPrefix: string, verb: string): WorktreeThread {
  const threadId = store.resolveId(idOrPrefix);
  const { worktree } = store.read(threadId).metadata;
  if (!worktree)
    throw new AcpThreadsError(
      "not_found",
      `thread ${threadId} has no worktree (only threads started with 'run --worktree' or 'exec --worktree' have one)`,
    );
  const owner = liveWriter(store.pathFor(threadId));
  if (owner)
    throw new AcpThreadsError(
      "usage",
      `thread ${threadId} is open in process ${owner.pid} (an editor or a run); ${verb} its worktree once its session is closed`,
    );
  return { threadId, worktree };
}
