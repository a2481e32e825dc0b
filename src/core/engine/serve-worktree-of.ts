/** The worktree an engine request acts on: always the one the named thread's record keeps, never a caller's folder. */
import { AcpThreadsError } from "../errors";
import type { WorktreeRef } from "../model/records";
import type { ThreadStore } from "../store/thread-store";

/** The worktree the thread's record keeps; a not_found error for a thread without one. */
export function worktreeOf(store: ThreadStore, threadId: string): WorktreeRef {
  const { worktree } = store.readMetadata(threadId);
  if (!worktree)
    throw new AcpThreadsError(
      "not_found",
      `thread ${threadId} has no worktree (only threads started with 'run --worktree' or 'exec --worktree' have one)`,
    );
  return worktree;
}
