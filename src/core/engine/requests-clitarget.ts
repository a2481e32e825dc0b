/**
 * The engine's requests for the CLI's thread targets (#35 item 7): the whole id a command's THREAD argument names
 * (a whole id or a unique prefix), and the workspace a folder's threads are listed under. Plain data in and out;
 * the engine looks in its own data home.
 */

export type CliTargetRequest =
  /**
   * The whole id `threadId` names (itself, or the one thread whose id starts with it, at least 4 characters), in
   * the trash with `trash`. Not found (nothing read) for anything that is not hex digits and dashes; a usage error
   * when the prefix is ambiguous.
   */
  | { op: "threads.resolve"; threadId: string; trash?: boolean }
  /** The workspace of folder `cwd` (absolute): the top of its git repository, else the folder itself. */
  | { op: "threads.workspace"; cwd: string };

export interface CliTargetReplies {
  "threads.resolve": { threadId: string };
  "threads.workspace": { workspace: string };
}
