/** Runs a short program to completion and collects its output (the spawner's `run`, and its direct fallback). */
import { spawn } from "node:child_process";

export interface RunRequest {
  file: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed (default: closed at once). */
  input?: string;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The start error (e.g. ENOENT), when the program could not be started. */
  error?: { message: string; code?: string };
}

export function runToEnd(req: RunRequest): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(req.file, req.args, { cwd: req.cwd, env: req.env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const errOut: Buffer[] = [];
    let error: NodeJS.ErrnoException | undefined;
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => errOut.push(b));
    child.stdin.on("error", () => {});
    child.stdin.end(req.input ?? "");
    child.once("error", (e) => (error = e));
    child.once("close", (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(errOut).toString("utf8"),
        ...(error ? { error: { message: error.message, code: error.code } } : {}),
      }),
    );
  });
}
