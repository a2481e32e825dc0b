/**
 * The engine requests of inline review (#35 item 7): where a reviewed file's pending hunks sit on the text the user
 * has now, and which thread a file's review comments belong to. The engine keeps what it read for them (each thread's
 * ledger view, each reviewed file's two versions) with the ledger this process writes, so a placement asked on every
 * keystroke reads nothing once read; `review.forget` lets a thread's part go when it records more (a turn, a keep,
 * an undo, a restore). Without a live ledger (the CLI, the host's socket) each request reads afresh.
 */

export type ReviewRequest =
  /** The pending hunks of `threads`' reviewable changes to `path`, placed on `text` (the document now), in line order. */
  | { op: "review.placed"; threads: readonly string[]; path: string; text: string }
  /** Of `threads`, the last to change `path` in an operation still reviewable (none: no thread changed it). */
  | { op: "review.author"; threads: readonly string[]; path: string }
  /** Forgets what was read of the thread for review (it recorded more). */
  | { op: "review.forget"; threadId: string }
  /**
   * Whether anything of the thread is left to review (a change not restored, neither kept nor undone): the window
   * lets a thread with nothing pending leave its review (and then forgets it).
   */
  | { op: "review.pending"; threadId: string };

/** One pending hunk, where it sits in the document now. */
export interface ReviewPlacement {
  threadId: string;
  /** The operation that made the change, its turn (a turn's), and the file. */
  op: string;
  turn?: number;
  path: string;
  /** The hunk's index in the file's change (Keep / Undo name it). */
  hunk: number;
  /** A turn's hunk, or one a worktree apply brought into the workspace. */
  type: "turn" | "apply";
  agent: string;
  /** Lines of the document now (end-exclusive; equal for a removal). */
  start: number;
  end: number;
  /** The hunk took lines out (its earlier version had lines here). */
  removes: boolean;
}

export interface ReviewReplies {
  "review.placed": ReviewPlacement[];
  "review.author": { threadId?: string };
  "review.forget": Record<string, never>;
  "review.pending": { pending: boolean };
}
