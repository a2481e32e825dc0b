/** Plain types and limits of exec mode, shared by the registry, the on-disk state and the CLI. */
import type { WorktreeRef } from "../model/records";
import type { SandboxPlan } from "../sandbox/plan";

/** Where a CLI leaves its own transcript (see transcript-finder.ts). */
export type TranscriptKind = "codex" | "claude" | "gemini";

export const DEFAULT_HEAD_BYTES = 64 * 1024;
export const DEFAULT_TAIL_BYTES = 1024 * 1024;
export const DEFAULT_RUN_TTL_MS = 60 * 60 * 1000;
export const DEFAULT_KILL_GRACE_MS = 1_500;
export const DEFAULT_PTY_COLS = 120;
export const DEFAULT_PTY_ROWS = 30;
/** State files are rewritten at most this often while output streams (byte count, for other processes). */
export const STATE_FLUSH_INTERVAL_MS = 1_000;

/**
 * `running` until the process exits. `exited` carries an exit code, `killed` a signal, `timeout` means the run
 * outlived its timeout and was killed, `failed` means it never started. `lost` is never written: readers
 * report it for a run whose state says running but whose process is gone (its owner died without recording).
 */
export const RUN_STATUSES = ["running", "exited", "killed", "timeout", "failed", "lost"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** What a state file holds (`<execDir>/<id>.json`). Never env values: they may be secrets. */
export interface RunState {
  version: 1;
  id: string;
  /** The program and its arguments after preset expansion. */
  command: string;
  args: string[];
  /** For display: the command line as one string. */
  commandLine: string;
  presetId?: string;
  cwd: string;
  /** The git worktree the run works in (`exec --worktree`, #25). */
  worktree?: WorktreeRef;
  /** The run was started inside the OS sandbox (`exec --sandbox`, #34). */
  sandboxed?: boolean;
  pty: boolean;
  cols?: number;
  rows?: number;
  pid: number | null;
  /** Process group (= session) the run was started in; `kill` signals it. */
  pgid: number | null;
  /** Linux start time of `pid` in clock ticks, so a recycled pid is never mistaken for the run. */
  pidStartTicks?: number;
  /** The process that owns the run and writes this file. */
  ownerPid: number;
  startedAt: string;
  endedAt?: string;
  updatedAt: string;
  status: Exclude<RunStatus, "lost">;
  exitCode: number | null;
  signal: string | null;
  /** Total bytes of output (stdout + stderr, or the PTY stream). */
  bytes: number;
  timeoutMs?: number;
  error?: string;
  threadId?: string;
  transcriptKind?: TranscriptKind;
  /** The CLI's own transcript (Codex rollout, Claude Code session file), when found. */
  transcriptPath?: string;
}

/** A run as reported to readers: the state plus the derived `lost` status. */
export interface RunInfo extends Omit<RunState, "status"> {
  status: RunStatus;
  /** True when this process owns the live run (write/resize/send-keys work only then). */
  live: boolean;
}

/** Output read at a byte cursor. `gap` is set when bytes between `cursor` and the data were dropped. */
export interface OutputSlice {
  /** The cursor asked for. */
  cursor: number;
  /** Where `text` starts (greater than `cursor` when a gap was skipped). */
  start: number;
  /** Cursor to pass next time: `start` + bytes of `text`. */
  next: number;
  text: string;
  gap?: { from: number; to: number };
  /** Total bytes the run has produced so far. */
  total: number;
}

export interface PollResult extends OutputSlice {
  run: RunInfo;
}

/** How to start a run. */
export interface ExecStartOptions {
  /** Program (resolved on PATH) and arguments, already expanded from a preset. */
  command: string;
  args: string[];
  cwd: string;
  /** Full environment of the child (defaults to this process's). Never persisted. */
  env?: NodeJS.ProcessEnv;
  /** Run on a pseudo-terminal (interactive CLIs) instead of pipes. */
  pty?: boolean;
  cols?: number;
  rows?: number;
  /** Kill the run (process group) after this long; its status becomes `timeout`. */
  timeoutMs?: number;
  /** Pipes only: close the child's stdin at once (CLIs that otherwise wait for stdin to end). */
  closeStdin?: boolean;
  presetId?: string;
  /** The CLI leaves its own transcript of this kind; it is looked up when the run ends. */
  transcript?: TranscriptKind;
  /** Use this id (the CLI's background launcher picks it before the supervisor starts). */
  id?: string;
  /** The git worktree `cwd` is in, recorded in the run's state and its thread's metadata. */
  worktree?: WorktreeRef;
  /** Run inside this OS sandbox (sandbox/plan.ts); recorded as `sandboxed` in its state. */
  sandbox?: SandboxPlan;
}

/** One output chunk as it arrives, for live mirrors (a Pseudoterminal, the CLI's foreground stream). */
export interface OutputEvent {
  runId: string;
  text: string;
  /** Byte offset of this chunk in the run's output. */
  offset: number;
  bytes: number;
  stream: "stdout" | "stderr" | "pty";
}

/**
 * Receives a run's life as it happens; the thread recorder implements it (exec-thread.ts) so each run becomes
 * a thread. Called synchronously; a recorder must not throw (recording must never break the run).
 */
export interface ExecRecorder {
  /** Returns the thread id the run is recorded in, if any (kept in the run's state). */
  started(run: RunState): string | undefined;
  output(event: OutputEvent): void;
  /** `read` serves the run's kept output (for the tail of a long run). */
  exited(run: RunState, read: (cursor: number, maxBytes: number) => OutputSlice): void;
  patched(run: RunState, patch: Partial<Pick<RunState, "transcriptPath">>): void;
  /** Before a run starts in `cwd` (the edit ledger builds the folder's baseline). */
  prepare?(cwd: string): Promise<void>;
}
