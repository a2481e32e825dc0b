/** Runs a short program to completion and collects its output (the spawner's `run`, and its direct fallback). */
import { spawn } from "node:child_process";
import { slot } from "../util/slot";
import { groupSpawnOptions, signalTree } from "./process-tree";

export interface RunRequest {
  file: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed (default: closed at once). */
  input?: string;
  /**
   * SIGTERM to the program's process group after this long (the result then carries the signal); default: none.
   * The group, so a grandchild holding the output open (`sh -c "sleep 30"`) does not keep the run waiting.
   */
  timeoutMs?: number;
  /**
   * Most bytes kept of stdout (and of stderr): past it the program is killed and the result carries an
   * `EOUTPUTLIMIT` error (its output is cut there). Default: no limit. Through the spawner the output crosses its
   * JSON channel as one string, so a caller that may read a lot sets a limit.
   */
  maxBytes?: number;
  /** How stdout comes back: text (default) or base64, for bytes that are not UTF-8 (a blob) across JSON. */
  stdoutEncoding?: "utf8" | "base64";
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The start error (e.g. ENOENT), when the program could not be started. */
  error?: { message: string; code?: string };
}

export const OUTPUT_LIMIT_CODE = "EOUTPUTLIMIT";

export function runToEnd(req: RunRequest): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(req.file, req.args, {
      cwd: req.cwd,
      env: req.env,
      stdio: ["pipe", "pipe", "pipe"],
      ...groupSpawnOptions(),
    });
    const stop = (signal: NodeJS.Signals) => (child.pid ? signalTree(child.pid, signal) : child.kill(signal));
    const out: Buffer[] = [];
    const errOut: Buffer[] = [];
    let error: NodeJS.ErrnoException | undefined;
    const limit = req.maxBytes ?? Infinity;
    const collect = (into: Buffer[], name: string) => {
      let size = 0;
      return (b: Buffer) => {
        if (error) return;
        if (size + b.length > limit) {
          into.push(b.subarray(0, limit - size));
          error = Object.assign(new Error(`${req.file}: ${name} exceeds ${limit} bytes`), { code: OUTPUT_LIMIT_CODE });
          stop("SIGKILL");
          return;
        }
        size += b.length;
        into.push(b);
      };
    };
    child.stdout.on("data", collect(out, "output"));
    child.stderr.on("data", collect(errOut, "error output"));
    child.stdin.on("error", () => {});
    child.stdin.end(req.input ?? "");
    child.once("error", (e) => (error ??= e));
    const timer = req.timeoutMs === undefined ? undefined : setTimeout(() => stop("SIGTERM"), req.timeoutMs);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString(req.stdoutEncoding ?? "utf8"),
        stderr: Buffer.concat(errOut).toString("utf8"),
        ...(error ? { error: { message: error.message, code: error.code } } : {}),
      });
    });
  });
}

/**
 * Where short commands in recurring paths (the async git facts of a session start) run: in this process by
 * default; the extension host points it at its spawner (SpawnerLauncher.run) so the fork happens there (#24).
 */
const runner = slot<(req: RunRequest) => Promise<RunResult>>(runToEnd);

/** Installs the runner; returns a function that puts the previous one back. */
export const setCommandRunner = (next: (req: RunRequest) => Promise<RunResult>): (() => void) => runner.set(next);

export const runCommand = (req: RunRequest): Promise<RunResult> => runner.get()(req);
