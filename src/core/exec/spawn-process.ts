/**
 * Starts a run's process either on a pseudo-terminal (node-pty) or on pipes (child_process), behind one small
 * interface. Both put the process in a new session (POSIX), so its pid is its process group for `kill`. A PTY
 * run falls back to pipes where node-pty is missing or cannot start a terminal (one notice per process, see
 * platform/pty.ts); the run's state then says `pty: false`.
 */
import { spawn as spawnChild } from "node:child_process";
import { statSync } from "node:fs";
import { AcpThreadsError } from "../errors";
import { findExecutable } from "../platform/executables";
import { groupSpawnOptions } from "../platform/process-tree";
import type { Readable, Writable } from "node:stream";
import { terminalLauncher, type LaunchExit, type Launched } from "../platform/launcher";
import { withPty, withPtyHandle } from "../platform/pty";
import { spawnPtyKeepingTail } from "../platform/pty-tail";
import { launchProgram, ptyArgs, type Launch } from "../platform/shell";
import { stopWhenMaskLost } from "../sandbox/mask-guard";
import { sandboxedLaunch, type SandboxPlan } from "../sandbox/plan";
import { background } from "../util/unexpected";
import { definedEnv } from "../util/guards";
import { signalName } from "./proc";
import { DEFAULT_PTY_COLS, DEFAULT_PTY_ROWS } from "./types";

export interface ProcessExit {
  exitCode: number | null;
  signal: string | null;
}

export interface SpawnedProcess {
  readonly pid: number;
  readonly pty: boolean;
  /** False for pipes started with `closeStdin`. */
  readonly acceptsInput: boolean;
  onData(listener: (chunk: Buffer, stream: "stdout" | "stderr" | "pty") => void): void;
  /** Fires once, after the last output chunk. */
  onExit(listener: (exit: ProcessExit) => void): void;
  write(data: string | Buffer): void;
  /** Pipes: close stdin (EOF). PTY: no-op (send C-d instead). */
  endInput(): void;
  resize(cols: number, rows: number): void;
}

export interface SpawnOptions {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  pty: boolean;
  cols?: number;
  rows?: number;
  closeStdin?: boolean;
  /** Run inside this OS sandbox (#34). */
  sandbox?: SandboxPlan;
}

/** How long to wait for the pipes to drain after the process exited (a daemon may hold them open forever). */
const DRAIN_AFTER_EXIT_MS = 500;
const PTY_QUIET_MS = 30;

/** Resolves `command` like a shell would, so a missing program is a clear error instead of a silent exit 127. */
export function resolveCommand(command: string, env: NodeJS.ProcessEnv, cwd: string): string {
  const found = findExecutable(command, { cwd, env });
  if (found) return found;
  throw new AcpThreadsError(
    "agent_not_found",
    `command not found: ${command} (not on PATH; install it or give its path)`,
    {
      command,
    },
  );
}

function programFor(options: SpawnOptions): Launch {
  try {
    if (!statSync(options.cwd).isDirectory()) throw new Error("not a directory");
  } catch {
    throw new AcpThreadsError("usage", `working directory does not exist: ${options.cwd}`);
  }
  const program = launchProgram(resolveCommand(options.command, options.env, options.cwd), options.args, {
    env: options.env,
  });
  return options.sandbox ? sandboxedLaunch(options.sandbox, program, options.cwd) : program;
}

/** Starts the process from this thread (node-pty's forkpty or child_process): the CLI. */
export function spawnProcess(options: SpawnOptions): SpawnedProcess {
  const launch = programFor(options);
  return guarded((options.pty && spawnPty(launch, options)) || spawnPipes(launch, options), options);
}

/** A sandboxed process stopped at once when its plan's mask is lost (mask-guard.ts), the notice as its last output. */
function guarded(proc: SpawnedProcess, options: SpawnOptions): SpawnedProcess {
  const guard = options.sandbox?.guard;
  if (!guard) return proc;
  const listeners: Parameters<SpawnedProcess["onData"]>[0][] = [];
  const onData = proc.onData.bind(proc);
  proc.onData = (listener) => {
    listeners.push(listener);
    onData(listener);
  };
  const exited = new Promise((resolve) => proc.onExit(resolve));
  stopWhenMaskLost(guard, proc.pid, exited, (notice) => {
    for (const l of listeners) l(Buffer.from(`\n${notice}\n`), proc.pty ? "pty" : "stderr");
  });
  return proc;
}

/**
 * Starts the process through the launcher seams (#24): the extension host's spawner forks it, so its thread only
 * sends a message; without a spawner installed, the same as `spawnProcess`. Resolves once the pid is known.
 */
export async function spawnProcessAsync(options: SpawnOptions): Promise<SpawnedProcess> {
  const launch = programFor(options);
  const term = options.pty ? withPtyHandle(launch.file, ptyArgs(launch), ptyOptions(options), (t) => t) : undefined;
  if (term) {
    const pid = await term.started;
    if (pid === undefined) throw new AcpThreadsError("agent_exited", `could not start ${options.command}`);
    return guarded(ptyProcess(term, pid), options);
  }
  const child = terminalLauncher().launch({
    file: launch.file,
    args: launch.args,
    cwd: options.cwd,
    env: options.env,
    verbatim: launch.verbatim,
  });
  const pid = await child.started;
  if (pid === undefined) {
    const { error } = await child.exit;
    throw new AcpThreadsError("agent_exited", `could not start ${options.command}: ${error?.message ?? "no pid"}`);
  }
  return guarded(launchedProcess(child, pid, options), options);
}

function ptyOptions(options: SpawnOptions) {
  return {
    name: options.env.TERM ?? "xterm-256color",
    cols: options.cols ?? DEFAULT_PTY_COLS,
    rows: options.rows ?? DEFAULT_PTY_ROWS,
    cwd: options.cwd,
    env: definedEnv(options.env),
  };
}

function spawnPty(launch: Launch, options: SpawnOptions): SpawnedProcess | undefined {
  const term = withPty((nodePty) => spawnPtyKeepingTail(nodePty, launch.file, ptyArgs(launch), ptyOptions(options)));
  return term && ptyProcess(term, term.pid);
}

/** The part of a terminal (node-pty's IPty, or the spawner's PtyHandle) a run uses. */
interface Terminal {
  onData(listener: (data: string) => void): unknown;
  onExit(listener: (exit: { exitCode: number; signal?: number }) => void): unknown;
  write(data: string): void;
  resize(cols: number, rows: number): void;
}

function ptyProcess(term: Terminal, pid: number): SpawnedProcess {
  let lastDataAt = 0;
  term.onData(() => (lastDataAt = Date.now()));
  return {
    pid,
    pty: true,
    acceptsInput: true,
    onData: (listener) => void term.onData((text) => listener(Buffer.from(text, "utf8"), "pty")),
    onExit: (listener) =>
      void term.onExit(({ exitCode, signal }) => {
        // node-pty reports exitCode 0 with a signal number when the child was signalled.
        const exit = signal ? { exitCode: null, signal: signalName(signal) } : { exitCode, signal: null };
        // The exit can overtake the last output still in the PTY: wait until it has been quiet a moment.
        const deadline = Date.now() + DRAIN_AFTER_EXIT_MS;
        const settle = () => {
          if (Date.now() - lastDataAt < PTY_QUIET_MS && Date.now() < deadline) setTimeout(settle, PTY_QUIET_MS);
          else listener(exit);
        };
        settle();
      }),
    write: (data) => term.write(typeof data === "string" ? data : data.toString("utf8")),
    endInput: () => {},
    resize: (cols, rows) => term.resize(Math.max(1, cols), Math.max(1, rows)),
  };
}

function spawnPipes(launch: Launch, options: SpawnOptions): SpawnedProcess {
  const child = spawnChild(launch.file, launch.args, {
    cwd: options.cwd,
    env: options.env,
    ...groupSpawnOptions(), // POSIX: new session + process group, so kill reaches grandchildren
    windowsVerbatimArguments: launch.verbatim,
    stdio: [options.closeStdin ? "ignore" : "pipe", "pipe", "pipe"],
  });
  const exit = new Promise<LaunchExit>((resolve) => {
    child.once("error", (error) => resolve({ code: null, signal: null, error }));
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  if (child.pid === undefined) throw new AcpThreadsError("agent_exited", `could not start ${options.command}`);
  return pipeProcess({ stdin: child.stdin, stdout: child.stdout!, stderr: child.stderr!, exit }, child.pid);
}

/** A process the launcher started (its stdin is always a pipe: `closeStdin` ends it at once). */
function launchedProcess(child: Launched, pid: number, options: SpawnOptions): SpawnedProcess {
  if (options.closeStdin) child.stdin.end();
  return pipeProcess({ ...child, stdin: options.closeStdin ? null : child.stdin }, pid);
}

function pipeProcess(
  io: { stdin: Writable | null; stdout: Readable; stderr: Readable; exit: Promise<LaunchExit> },
  pid: number,
): SpawnedProcess {
  const { stdin } = io;
  const dataListeners: Array<(chunk: Buffer, stream: "stdout" | "stderr") => void> = [];
  const exitListeners: Array<(exit: ProcessExit) => void> = [];
  io.stdout.on("data", (chunk: Buffer) => dataListeners.forEach((l) => l(chunk, "stdout")));
  io.stderr.on("data", (chunk: Buffer) => dataListeners.forEach((l) => l(chunk, "stderr")));
  stdin?.on("error", () => {}); // EPIPE after the child exited is not our failure
  let exited: ProcessExit | undefined;
  let finished = false;
  const finish = () => {
    if (finished || !exited) return;
    finished = true;
    exitListeners.forEach((l) => l(exited!));
  };
  // Once the process exited and both outputs ended, so every byte has been delivered before the exit.
  let open = 2;
  const ended = () => --open === 0 && finish();
  io.stdout.once("end", ended);
  io.stderr.once("end", ended);
  const reported = io.exit.then(({ code, signal, error }) => {
    if (error) {
      exited ??= { exitCode: 127, signal: null };
      dataListeners.forEach((l) => l(Buffer.from(`acp-threads: ${error.message}\n`), "stderr"));
      return finish();
    }
    exited = { exitCode: code, signal: signal ?? null };
    if (open === 0) finish();
    else setTimeout(finish, DRAIN_AFTER_EXIT_MS).unref();
  });
  background(reported, "reporting a run's exit");
  return {
    pid,
    pty: false,
    acceptsInput: stdin !== null,
    onData: (listener) => void dataListeners.push(listener),
    onExit: (listener) => void exitListeners.push(listener),
    write: (data) => {
      if (!stdin || stdin.destroyed || stdin.writableEnded) {
        throw new AcpThreadsError("usage", "the run's stdin is closed");
      }
      stdin.write(data);
    },
    endInput: () => stdin?.end(),
    resize: () => {},
  };
}
