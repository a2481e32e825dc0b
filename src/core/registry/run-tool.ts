/**
 * Runs an installer tool (npm, uv) to completion; a failure carries the tail of what it printed. It starts the way
 * platform/shell.ts starts any program: on Windows `npm.cmd` (a batch file) goes through cmd.exe with every
 * argument quoted for it, so a data home with spaces or `& | ^ % ! ( ) "` in it stays one argument.
 */
import { spawn } from "node:child_process";
import { findExecutable } from "../platform/executables";
import { launchProgram } from "../platform/shell";

/** Absolute path of `name` on PATH (PATHEXT on Windows), or null. */
export function findTool(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  return findExecutable(name, { cwd: process.cwd(), env });
}

export function runTool(
  command: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; signal?: AbortSignal; onLine?: (line: string) => void },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const env = opts.env ?? process.env;
    const launch = launchProgram(command, args, { env });
    const child = spawn(launch.file, launch.args, {
      cwd: opts.cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      signal: opts.signal,
      windowsVerbatimArguments: launch.verbatim,
      windowsHide: true,
    });
    let tail = "";
    const take = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      tail = (tail + text).slice(-4000);
      for (const line of text.split(/\r?\n/)) if (line.trim()) opts.onLine?.(line.trim());
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${tail.trim()}`));
    });
  });
}
