/**
 * How the engine starts a long-lived process with piped stdio (an agent), as a seam: the direct path spawns it
 * from this process (`child_process.spawn`); the extension host passes the spawner's launcher
 * (spawner-client.ts), which forks from a small helper process, because a fork of the large host blocks the
 * host's thread for tens of milliseconds. Both give the same streams and the same exit report.
 */
import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { groupSpawnOptions } from "./process-tree";
import { slot } from "../util/slot";

export interface LaunchSpec {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Windows: pass the arguments as they are (platform/shell.ts's `verbatim`). */
  verbatim?: boolean;
}

export interface LaunchExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started (e.g. ENOENT); the message is node's spawn error's. */
  error?: Error;
}

/** A started process: its own process group on POSIX (see process-tree.ts). */
export interface Launched {
  /** The pid once known (the spawner reports it after a round trip); undefined before and after a failed start. */
  readonly pid: number | undefined;
  /** Resolves with the pid once started, undefined when the start failed. */
  readonly started: Promise<number | undefined>;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Resolves once, when the process exited or failed to start (never rejects). */
  readonly exit: Promise<LaunchExit>;
  /** True when the launcher itself ends the group if this process dies (no per-process guard needed). */
  readonly guarded: boolean;
  /**
   * Whether this process's event loop waits for the child (default: it does). Only the direct path has it: through
   * the spawner the loop is held by the spawner's channel while a process it started runs.
   */
  hold?(on: boolean): void;
}

export interface Launcher {
  launch(spec: LaunchSpec): Launched;
}

/** Spawns from this process: the CLI, Windows, and the spawner's fallback. */
export const directLauncher: Launcher = {
  launch(spec) {
    const child = spawn(spec.file, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      ...groupSpawnOptions(),
      windowsVerbatimArguments: spec.verbatim,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exit = new Promise<LaunchExit>((resolve) => {
      child.once("error", (error) => resolve({ code: null, signal: null, error }));
      child.once("exit", (code, signal) => resolve({ code, signal }));
    });
    const started = child.pid
      ? Promise.resolve(child.pid)
      : exit.then(() => (child.pid === undefined ? undefined : child.pid));
    return {
      get pid() {
        return child.pid;
      },
      started,
      stdin: child.stdin!,
      stdout: child.stdout!,
      stderr: child.stderr!,
      exit,
      guarded: false,
      hold(on) {
        for (const h of [child, child.stdout, child.stderr, child.stdin] as { ref(): void; unref(): void }[])
          if (on) h.ref();
          else h.unref();
      },
    };
  },
};

const terminals = slot<Launcher>(directLauncher);

/**
 * Where long-lived processes on plain pipes start — agent terminals, the ledger's `git cat-file --batch` — (the
 * extension host installs its spawner); returns how to put it back.
 */
export const setTerminalLauncher = (next: Launcher): (() => void) => terminals.set(next);

export const terminalLauncher = (): Launcher => terminals.get();
