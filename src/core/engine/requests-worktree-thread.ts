/**
 * The thread a `worktrees` command names, before it acts (#35 item 7): the id resolved in the engine's data home (a
 * whole id or a unique prefix; anything else, a path or `../`, is a usage error and nothing is read), the worktree
 * its record keeps, and whether another process writes the thread now. Nothing is changed.
 */
import type { WorktreeRef } from "../model/records";

export type WorktreeThreadRequest =
  /** The thread `thread` names (its id or a unique prefix of at least 4 characters), which must have a worktree. */
  { op: "worktree.thread"; thread: string };

export interface WorktreeThreadReplies {
  /** `threadId`: the whole id; `heldBy`: the pid of a live writer of the thread other than this engine (null: none). */
  "worktree.thread": { threadId: string; worktree: WorktreeRef; heldBy: number | null };
}
