/**
 * A thread's git worktree as the engine reports it (#25, #35 item 7): its state against the base commit, and what
 * discarding it or committing it to a branch did. Plain data (the engine requests of core/engine/requests-worktree.ts
 * answer with them).
 */
import type { WorktreeRef } from "./records";

export type WorktreeChangeKind = "added" | "modified" | "deleted";

export interface WorktreeFile {
  /** Repository-relative, `/`-separated. */
  path: string;
  change: WorktreeChangeKind;
  /** Lines (null for binary files). */
  added: number | null;
  removed: number | null;
}

export interface WorktreeState {
  /** False when the worktree folder is gone (deleted by hand): nothing else could be read. */
  exists: boolean;
  /** The worktree's HEAD commit. */
  head: string | null;
  /** Commits on top of the base. */
  ahead: number;
  files: WorktreeFile[];
  added: number;
  removed: number;
}

/** The state of a worktree whose folder could not be read. */
export const GONE_WORKTREE: WorktreeState = { exists: false, head: null, ahead: 0, files: [], added: 0, removed: 0 };

/** A thread with a worktree, and that worktree's state (`worktrees list`). */
export interface WorktreeEntry {
  threadId: string;
  agent: string;
  title: string | null;
  worktree: WorktreeRef;
  state: WorktreeState;
}

export interface DiscardResult {
  /** The folder was already gone (deleted by hand). */
  wasMissing: boolean;
  warnings: string[];
}

export interface CommitResult {
  branch: string;
  commit: string;
  /** Files the new commit holds changes of (0 when the branch only names commits already made). */
  files: number;
}
