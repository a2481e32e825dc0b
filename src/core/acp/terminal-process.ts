/**
 * A process started for `terminal/create`: a pseudo-terminal through node-pty when it loads (agents get
 * colours and line-buffered output like in Zed), else a plain child process (with the one-time pipe notice,
 * platform/pty.ts). A `command` without `args` is a shell line (claude-code-acp sends `echo hi` that way:
 * `/bin/sh -c`, cmd.exe on Windows). A program name is looked up like a shell would (npm `.cmd` shims on
 * Windows included). Both run in their own process group (POSIX) so kill reaches whatever the command started.
 */
import { constants } from "node:os";
import { findExecutable } from "../platform/executables";
import { terminalLauncher } from "../platform/launcher";
import { background } from "../util/unexpected";
import { withPtyHandle } from "../platform/pty";
import { launchProgram, ptyArgs, shellLine, type Launch } from "../platform/shell";
import { stopWhenMaskLost } from "../sandbox/mask-guard";
import { sandboxedLaunch, type SandboxPlan } from "../sandbox/plan";
import { killGroup } from "./spawn";

export interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
}

export interface TerminalProcess {
  /** 0 (or -1) until known: a terminal started through the spawner learns it after a round trip. */
  readonly pid: number;
  /** Resolves with the pid once started (undefined when the start failed). */
  readonly started: Promise<number | undefined>;
  readonly kind: "pty" | "pipe";
  onData(listener: (data: string | Buffer) => void): void;
  onExit(listener: (exit: TerminalExit) => void): void;
  write(data: string): void;
  resize(cols: number, rows: number): void;
}

export interface StartTerminalOptions {
  command: string;
  args?: string[] | null;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Force the plain child-process backend (tests, hosts that render output themselves). */
  noPty?: boolean;
  /** Run inside the session's OS sandbox. */
  sandbox?: SandboxPlan;
}

const SIGNAL_NAMES = new Map<number, string>(
  Object.entries(constants.signals).map(([name, num]) => [num as number, name]),
);

function programOf(opts: StartTerminalOptions): Launch {
  if (!opts.args?.length) return shellLine(opts.command);
  // Not found: spawn it as given and let the error reach the agent as the terminal's output.
  const file = findExecutable(opts.command, { cwd: opts.cwd, env: opts.env }) ?? opts.command;
  return launchProgram(file, opts.args, { env: opts.env });
}

function launchOf(opts: StartTerminalOptions): Launch {
  const program = programOf(opts);
  return opts.sandbox ? sandboxedLaunch(opts.sandbox, program, opts.cwd) : program;
}

export function startTerminalProcess(opts: StartTerminalOptions): TerminalProcess {
  const proc = startUnguarded(opts);
  // the agent's own process carries the notice (spawn.ts); its terminals only stop with it
  stopWhenMaskLost(opts.sandbox?.guard, proc.started, new Promise((resolve) => proc.onExit(resolve)));
  return proc;
}

function startUnguarded(opts: StartTerminalOptions): TerminalProcess {
  const launch = launchOf(opts);
  const term = opts.noPty
    ? undefined
    : withPtyHandle(
        launch.file,
        ptyArgs(launch),
        { cwd: opts.cwd, env: opts.env as Record<string, string>, cols: 120, rows: 30, name: "xterm-256color" },
        (t) => t,
      );
  if (term) {
    return {
      get pid() {
        return term.pid;
      },
      started: term.started,
      kind: "pty",
      onData: (listener) => void term.onData(listener),
      onExit: (listener) =>
        void term.onExit(({ exitCode, signal }) =>
          listener(
            signal
              ? { exitCode: null, signal: SIGNAL_NAMES.get(signal) ?? String(signal) }
              : { exitCode, signal: null },
          ),
        ),
      write: (data) => term.write(data),
      resize: (cols, rows) => term.resize(cols, rows),
    };
  }
  const child = terminalLauncher().launch({
    file: launch.file,
    args: launch.args,
    cwd: opts.cwd,
    env: opts.env,
    verbatim: launch.verbatim,
  });
  child.stdin.on("error", () => {});
  let exitListeners: ((exit: TerminalExit) => void)[] = [];
  let exit: TerminalExit | undefined;
  const finish = (e: TerminalExit) => {
    if (exit) return;
    exit = e;
    for (const l of exitListeners) l(e);
    exitListeners = [];
  };
  // Once the process exited and both outputs ended, so every byte has been delivered before the exit.
  let open = 2;
  let exited: TerminalExit | undefined;
  const ended = () => {
    if (--open === 0 && exited) finish(exited);
  };
  child.stdout.once("end", ended);
  child.stderr.once("end", ended);
  const reported = child.exit.then(({ code, signal, error }) => {
    if (error) {
      child.stderr.emit("data", Buffer.from(`${error.message}\n`));
      finish({ exitCode: 127, signal: null });
      return;
    }
    exited = { exitCode: signal ? null : code, signal };
    if (open === 0) finish(exited);
  });
  background(reported, "reporting a terminal's exit");
  return {
    get pid() {
      return child.pid ?? -1;
    },
    started: child.started,
    kind: "pipe",
    onData: (listener) => {
      child.stdout.on("data", listener);
      child.stderr.on("data", listener);
    },
    onExit: (listener) => (exit ? listener(exit) : exitListeners.push(listener)),
    write: (data) => void child.stdin.write(data),
    resize: () => {},
  };
}

/** SIGTERM the terminal's process group, SIGKILL after `graceMs` if it is still running. */
export function killTerminalProcess(proc: TerminalProcess, isRunning: () => boolean, graceMs = 1_000): void {
  if (proc.pid <= 0) {
    const later = proc.started.then((pid) => {
      if (pid !== undefined && pid > 0 && isRunning()) killTerminalProcess(proc, isRunning, graceMs);
    });
    background(later, "killing a terminal once started");
    return;
  }
  killGroup(proc.pid, "SIGTERM");
  setTimeout(() => {
    if (isRunning()) killGroup(proc.pid, "SIGKILL");
  }, graceMs).unref();
}
