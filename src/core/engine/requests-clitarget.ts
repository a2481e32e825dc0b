/**
 * The engine's requests for the CLI's thread targets (#35 item 7): the whole id a command's THREAD argument names
 * (a whole id or a unique prefix), the workspace a folder's threads are listed under, and `threads delete` /
 * `threads restore`. Plain data in and out; the engine looks in its own data home and moves only the thread named.
 */

export type CliTargetRequest =
  /**
   * The whole id `threadId` names (itself, or the one thread whose id starts with it, at least 4 characters), in
   * the trash with `trash`. Not found (nothing read) for anything that is not hex digits and dashes; a usage error
   * when the prefix is ambiguous.
   */
  | { op: "threads.resolve"; threadId: string; trash?: boolean }
  /** The workspace of folder `cwd` (absolute): the top of its git repository, else the folder itself. */
  | { op: "threads.workspace"; cwd: string }
  /**
   * Moves the thread `threadId` names (as `threads.resolve` finds it) to the trash, with its images; refused
   * (`locked`) while another process writes it.
   */
  | { op: "threads.delete"; threadId: string }
  /** Brings the thread `threadId` names in the trash back; refused when a thread of that id exists. */
  | { op: "threads.restore"; threadId: string };

export interface CliTargetReplies {
  "threads.resolve": { threadId: string };
  "threads.workspace": { workspace: string };
  /** `trash`: the thread file's path in the trash. */
  "threads.delete": { threadId: string; trash: string };
  /** `path`: the thread file's path again. */
  "threads.restore": { threadId: string; path: string };
}
