/**
 * What an editor client serves the thread host's agents (#35 item 7), as the host's protocol (protocol.ts) carries
 * it: the offer in `hello`, the `serve` asks and their `served` answers, a hosted terminal's end.
 */
/** How often a client working on a `serve` ask says so (`serving`); the host's waits are several times longer. */
export const SERVE_ALIVE_MS = 5_000;

/**
 * What an editor client serves the host's agents (#35 item 7): their `fs/read_text_file` and `fs/write_text_file`
 * for sessions whose folder is inside `roots` (its workspace folders), with its unsaved buffers and its own write
 * path. Said in `hello` (again, when the folders change); none: the client serves nothing.
 */
export interface ServeOffer {
  fs: boolean;
  roots: string[];
  /**
   * It shows the terminals of those sessions' agents (they run in the host's ptys) as its own, and the user types
   * into them (`terminal` / `terminal_output` pushes, `terminal_input` requests).
   */
  terminals?: boolean;
}

/** How a hosted agent's terminal process ended (as the engine reports it). */
export interface TerminalExitStatus {
  exitCode: number | null;
  signal: string | null;
  /** An exec run the host owns: its status in the exec registry (`timeout`, `killed`, ...), as `ps` says it. */
  status?: string;
}

/**
 * A file effect the host asks a serving client for, after the session's roots and permission policy allowed it:
 * the client's `WorkspaceFiles` (core/ports.ts) call, its path absolute and checked.
 */
export type ServeOp =
  /** `range` absent: the whole text (readText); present: those lines (readLines). */
  | { kind: "read"; path: string; range?: { line?: number | null; limit?: number | null; maxBytes?: number } }
  | { kind: "write"; path: string; content: string; lastRead?: string };

/**
 * A serving client's answer. `done`: `content` is the read's text (null: no such file; absent for a write).
 * `refused`: the client will not (outside its folders, the user declined): the agent gets the error, nothing falls
 * back to the disk. `failed`: it could not: the host does it on the disk.
 */
export type ServeAnswer =
  | { done: true; content?: string | null }
  | { refused: string; code: "permission_denied" | "path_outside_workspace" }
  | { failed: string };
