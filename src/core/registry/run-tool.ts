/** Runs an installer tool (npm, uv) to completion; a failure carries the tail of what it printed. */
import { spawn } from "node:child_process";
import { findExecutable } from "../platform/executables";

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
    const windowsScript = process.platform === "win32" && /\.(cmd|bat)$/i.test(command);
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
      signal: opts.signal,
      shell: windowsScript, // npm.cmd runs only through cmd.exe; the args are ours, not the user's
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
