/**
 * The engine requests of a thread's git worktree once it exists (#25, #35 item 7): its state, discarding it,
 * committing it to a branch. A request names the thread; the worktree is the one its record keeps, never a folder
 * the caller names (a client over the host's socket could otherwise have any folder removed, or git run anywhere).
 * Discarding removes only a folder in the place ACP Threads manages beside the repository (core/worktree/layout.ts).
 */
import type { ErrorCode } from "../errors";
import type { CommitResult, DiscardResult, WorktreeEntry, WorktreeState } from "../model/worktree";
import type { ApplyPlan } from "../worktree/apply";
import type { FileMerge } from "../worktree/merge-file";

export type WorktreeRequest =
  /** The threads of the data home that have a worktree, each with its state against the base. */
  | { op: "worktree.list" }
  /** The thread's worktree's state (changed files, +/- lines, commits ahead); `exists: false` when its folder is gone. */
  | { op: "worktree.state"; threadId: string }
  /**
   * Removes the thread's worktree and its folder, and the thread forgets it (what was not applied is lost). The
   * caller has asked the user and ended the thread's session first.
   */
  | { op: "worktree.discard"; threadId: string }
  /** `name` as git takes it as a new branch in the thread's repository, or a usage error saying why not. */
  | { op: "worktree.branch-name"; threadId: string; name: string }
  /** Commits the worktree's changes inside it and makes a new branch `branch` there (never an existing one). */
  | { op: "worktree.commit"; threadId: string; branch: string; message: string }
  /**
   * Writes the worktree's changes into the main checkout through the thread's edit ledger (undoable), planned here:
   * a file changed in the workspace too is a conflict, never overwritten; without `force` or `merge` nothing is
   * applied. `merge`: conflicts merged three-way (markers where both changed the same lines). `dryRun`: only the
   * plan, with what a merge would make of each conflict.
   */
  | { op: "worktree.apply"; threadId: string; dryRun?: boolean; force?: boolean; merge?: boolean };

/** What an apply does to one file (`worktrees apply --format json` prints it). */
export type ApplyOutcome =
  | { outcome: "unchanged" | "apply" | "conflict" | "merge" }
  | { outcome: "markers"; hunks: number }
  | { outcome: "kept" | "refused"; reason: string };

/** One file of the plan (in its order): its outcome, and its merge's kind (null: not merged). */
export type ApplyFile = ApplyOutcome & { merge: FileMerge["kind"] | null };

export interface WorktreeReplies {
  "worktree.list": WorktreeEntry[];
  "worktree.state": WorktreeState;
  /** `path`: the folder that was removed. */
  "worktree.discard": DiscardResult & { path: string };
  "worktree.branch-name": { branch: string };
  "worktree.commit": CommitResult;
  /**
   * `result`: what was applied (absent for a dry run or a refusal), `op` the ledger operation (null: nothing to
   * write); `refused`: why nothing was applied (conflicts or links), with the error's code and details.
   */
  "worktree.apply": {
    plan: ApplyPlan;
    files: ApplyFile[];
    result?: { op: string | null; applied: string[]; skipped: string[] };
    refused?: { code: ErrorCode; message: string; details?: Record<string, unknown> };
  };
}
