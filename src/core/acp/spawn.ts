/**
 * Starts an agent process and stops it for good.
 *
 * On POSIX agents are spawned `detached`, so each one leads its own process group: npm launchers (codex-acp)
 * run the real binary as a child, and a SIGTERM to the launcher alone leaves that child orphaned. Stopping
 * closes stdin (some agents exit on EOF), waits, then signals the whole group with SIGTERM and later SIGKILL.
 * Windows has no groups: the agent stays attached (no console window), an npm `.cmd` shim is started through
 * node or cmd.exe (see platform/shell.ts), and both stop steps end the tree with `taskkill /T /F`.
 */
import type { Readable, Writable } from "node:stream";
import { isAbsolute } from "node:path";
import { AcpThreadsError } from "../errors";
import type { AgentSpec } from "../model/agent";
import { childEnv } from "../platform/env";
import { HOST_PLATFORM } from "../platform/host";
import { directLauncher, type Launcher } from "../platform/launcher";
import { signalTree } from "../platform/process-tree";
import { launchProgram } from "../platform/shell";
import { stopWhenMaskLost } from "../sandbox/mask-guard";
import { sandboxedLaunch, type SandboxPlan } from "../sandbox/plan";
import { guardAgainstParentDeath } from "./parent-guard";
import type { ProtocolLog } from "./protocol-log";
import { background } from "../util/unexpected";
import { StderrLines } from "./stderr-lines";

export const DEFAULT_STDIN_GRACE_MS = 1_000;
export const DEFAULT_KILL_GRACE_MS = 2_000;
export const STDERR_TAIL_LINES = 40;
const STDERR_DRAIN_MS = 200;

export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface AgentProcess {
  /** -1 until the launcher reported it (the spawner answers after a round trip) and after a failed start. */
  readonly pid: number;
  /** The agent's stdin and stdout: the ACP wire. */
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<AgentExit>;
  /** The exit status once known. */
  exitStatus(): AgentExit | undefined;
  /** The last lines the agent wrote to stderr. */
  stderrTail(): string[];
  /** Close stdin → wait → SIGTERM the group → wait → SIGKILL the group. Resolves when the leader exited. */
  stop(opts?: { stdinGraceMs?: number; killGraceMs?: number }): Promise<AgentExit>;
}

export interface SpawnAgentOptions {
  cwd: string;
  /** Extra env on top of `process.env` and the spec's env (run-specific, never persisted). */
  env?: Record<string, string>;
  baseEnv?: NodeJS.ProcessEnv;
  log?: ProtocolLog;
  /** Who forks the agent (default: this process; the extension host passes the spawner's). */
  launcher?: Launcher;
  /** Run the agent, and everything it starts, inside this OS sandbox (#34). */
  sandbox?: SandboxPlan;
}

/** Sends `signal` to the process group led by `pid`, falling back to the pid itself (Windows: its tree). */
export function killGroup(pid: number, signal: NodeJS.Signals): void {
  signalTree(pid, signal);
}

export function spawnAgent(spec: AgentSpec, opts: SpawnAgentOptions): AgentProcess {
  if (!isAbsolute(spec.command)) {
    throw new AcpThreadsError("agent_not_found", `agent command must be an absolute path, got '${spec.command}'`);
  }
  const env = childEnv(HOST_PLATFORM, opts.cwd, opts.baseEnv ?? process.env, spec.env, opts.env);
  const program = launchProgram(spec.command, spec.args, { env });
  const launch = opts.sandbox ? sandboxedLaunch(opts.sandbox, program, opts.cwd) : program;
  const child = (opts.launcher ?? directLauncher).launch({
    file: launch.file,
    args: launch.args,
    cwd: opts.cwd,
    env,
    verbatim: launch.verbatim,
  });
  const tail = new StderrLines(STDERR_TAIL_LINES, (line) => opts.log?.add("stderr", line));
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (data: string) => tail.push(data));
  // A dead agent makes writes fail with EPIPE; the exit is reported through `exited` instead.
  child.stdin.on("error", () => {});
  let status: AgentExit | undefined;
  const exited = new Promise<AgentExit>((resolve) => {
    background(
      child.exit.then(({ code, signal, error }) => {
        if (error) {
          opts.log?.note(`spawn failed: ${error.message}`);
          status = { code: null, signal: null };
          tail.add(error.message);
          resolve(status);
          return;
        }
        // `exit` can come before the last stderr bytes: give stderr a moment to drain for the error message.
        const done = () => {
          if (status) return;
          tail.end();
          status = { code, signal };
          opts.log?.note(`agent exited (code ${code}, signal ${signal})`);
          resolve(status);
        };
        if (child.stderr.readableEnded) return done();
        child.stderr.once("end", done);
        setTimeout(done, STDERR_DRAIN_MS).unref();
      }),
      "watching the agent exit",
    );
  });

  if (!child.guarded) {
    background(
      child.started.then((pid) => {
        if (pid === undefined) return;
        const stopGuard = guardAgainstParentDeath(pid);
        return exited.then(stopGuard);
      }),
      "releasing the parent-death guard",
    );
  }
  stopWhenMaskLost(opts.sandbox?.guard, child.started, exited, (notice) => {
    tail.add(notice);
    opts.log?.note(notice);
  });
  const pidNow = () => child.pid ?? -1;
  return {
    get pid() {
      return pidNow();
    },
    stdin: child.stdin,
    stdout: child.stdout,
    exited,
    exitStatus: () => status,
    stderrTail: () => tail.lines(),
    async stop({ stdinGraceMs = DEFAULT_STDIN_GRACE_MS, killGraceMs = DEFAULT_KILL_GRACE_MS } = {}) {
      const waitExit = (ms: number) =>
        Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
      const pid = (await child.started) ?? -1;
      if (!status) {
        child.stdin.end();
        if (!(await waitExit(stdinGraceMs)) && pid > 0) {
          killGroup(pid, "SIGTERM");
          if (!(await waitExit(killGraceMs))) killGroup(pid, "SIGKILL");
        }
      }
      const result = await exited;
      // The leader may be gone while children it started still hold the group: finish them too.
      if (pid > 0) killGroup(pid, "SIGKILL");
      return result;
    },
  };
}
