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
  | { op: "review.pending"; threadId: string }
  /**
   * Keeps hunk `hunk` (none: the whole file) of operation `target`'s change to `path`: a review record, nothing on
   * disk changes. The ledger must have that change.
   */
  | { op: "review.keep"; threadId: string; target: string; path: string; hunk?: number }
  /**
   * Takes hunk `hunk` (none: the whole change) of `target`'s change to `path` back out of the file as it is now (the
   * editor's text in the window, written through it), recorded as an undo operation. Refused, nothing written: a
   * change the ledger lacks, a file outside the thread's folders, lines changed since (`force`: a whole file anyway).
   */
  | { op: "review.undo"; threadId: string; target: string; path: string; hunk?: number; force?: boolean }
  /** "Keep all" of operation `target`: every hunk (or whole file) still pending is kept. */
  | { op: "review.keepAll"; threadId: string; target: string }
  /**
   * The thread's reviewable operations (turns, applies) that changed files, each as the thread panel's "N files
   * changed" row; `cwd`: the thread's folder, the rows' names are relative to it.
   */
  | { op: "review.turnChanges"; threadId: string; cwd: string };

/** A turn's (or an apply's) changed files, as the thread panel's row shows them. */
export interface TurnChanges {
  /** The turn the row sits under (an apply: the last turn before it). */
  turn: number;
  /** The ledger operation (`turn-N`, `apply-…`): rows are keyed and acted on by it. */
  op: string;
  /** A worktree apply into the workspace, not a turn of the agent. */
  apply?: true;
  files: number;
  added: number;
  removed: number;
  /** Hunks (or whole files) not yet kept or undone; 0 once a restore took the operation back. */
  pending: number;
  /** The first few files, relative to the thread's folder. */
  names: string[];
  /** The restore that took this operation back (its op id), while it is not undone: nothing of it to review. */
  restoredBy?: string;
}

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
  "review.keep": Record<string, never>;
  /** `op`: the undo operation recorded. */
  "review.undo": { op: string };
  /** How many hunks (or whole files) were kept; 0: nothing was left to review. */
  "review.keepAll": { kept: number };
  "review.turnChanges": TurnChanges[];
  "review.pending": { pending: boolean };
}
