/** The thread host's exec runs (#35), as its protocol (protocol.ts) carries them: `exec_start`'s run and the run's info. */
import type { TranscriptKind } from "../exec/types";
import type { WorktreeRef } from "../model/records";
import type { SandboxSettings } from "../model/sandbox";

/**
 * An exec run a client asks the host to run (#35): an agent CLI or any command line, in the host's pty, so it
 * outlives the window. As the window starts one (vscode/exec-terminal.ts), as plain data. The host refuses it
 * unless `cwd` and `roots` are inside the asking client's folders (`hello`'s `serves.roots`, real paths), or it is in
 * a worktree of one of their repositories (`preparedWorktree`).
 */
export interface HostExec {
  /** The program (resolved on PATH in the host) and its arguments, already expanded from a preset. */
  command: string;
  args: string[];
  cwd: string;
  /** The folders the sandbox leaves writable besides `cwd` (each inside the client's folders). */
  roots?: string[];
  /** A pseudo-terminal (default) or pipes. */
  pty?: boolean;
  cols?: number;
  rows?: number;
  /** Pipes only: the program's stdin is closed at once. */
  closeStdin?: boolean;
  presetId?: string;
  transcript?: TranscriptKind;
  timeoutMs?: number;
  /** How the clients name its terminal and its row (at most EXEC_TITLE_MAX characters); none: the command line. */
  title?: string;
  /** Extra environment: held in the host's memory only, never written. */
  env?: Record<string, string>;
  /** The asking client's environment, the run's base (as `DetachedRun.baseEnv`): memory only, never written. */
  baseEnv?: Record<string, string>;
  /** The OS sandbox, from the settings the client decided with (the host prepares it as `exec --sandbox` does). */
  sandbox?: SandboxSettings;
  /**
   * The run works in this worktree, made by the asking client (a run "in a new worktree"); `cwd` is its `cwd`. The
   * host refuses it unless the worktree is one it would have made itself for a repository of the client's folders
   * (run-roots.ts `assertWorktreeOffered`, as for `DetachedRun.preparedWorktree`); no `roots` with it.
   */
  preparedWorktree?: { ref: WorktreeRef; cwd: string };
}

export const EXEC_TITLE_MAX = 200;

/** An exec run the host owns, as `status` lists it and its `terminal` push names it. */
export interface HostExecInfo {
  runId: string;
  title: string;
  commandLine: string;
  cwd: string;
  startedAt: string;
  /** The exec thread recording it. */
  threadId?: string;
  sandboxed?: boolean;
  /** The worktree it works in (`HostExec.preparedWorktree`'s). */
  worktree?: WorktreeRef;
}

/**
 * Input for an exec run the host owns, from a client whose folders hold it (`acp-threads send`): `data` as typed,
 * `line` typed then Enter, `keys` named keys (`C-c`, `Enter`, `Up`...; exec/send-keys.ts), in that order.
 */
export interface HostExecInput {
  data?: string;
  line?: string;
  keys?: string[];
}

/** The exec requests of the host's protocol (protocol.ts `HostRequest`). */
export type ExecRequest =
  /**
   * Starts an exec run in the host (refused unless its folders are the client's own): its output, exit and input
   * go as a hosted terminal's (`terminal` with `exec`, `terminal_output`, `terminal_input`, the terminal's id its run
   * id), to every client that shows terminals of its folder.
   */
  | { t: "exec_start"; id: number; exec: HostExec }
  /** Stops an exec run the host owns (its process group: SIGTERM, SIGKILL after a grace), from any client. */
  | { t: "exec_stop"; id: number; runId: string }
  /** Types into an exec run the host owns (refused unless its folders are the client's own, or once it ended). */
  | { t: "exec_input"; id: number; runId: string; input: HostExecInput };
