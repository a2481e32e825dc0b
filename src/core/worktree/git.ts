/**
 * The git calls the worktree stage makes: `git -C cwd ...` without a shell, output as text (or raw bytes), a
 * failure as an Error naming the command and git's own message.
 */
import { execFile } from "node:child_process";

const MAX_BUFFER = 512 * 1024 * 1024;

export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
    message: string,
  ) {
    super(message);
    this.name = "GitError";
  }
}

export function gitBuffer(cwd: string, args: string[], opts: { timeoutMs?: number } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      ["-c", "core.quotepath=off", ...args],
      { cwd, encoding: "buffer", maxBuffer: MAX_BUFFER, timeout: opts.timeoutMs ?? 120_000, windowsHide: true },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const text = stderr.toString().trim();
        reject(new GitError(args, text, `git ${args[0]} failed: ${text || err.message}`));
      },
    );
  });
}

export async function git(cwd: string, args: string[], opts: { timeoutMs?: number } = {}): Promise<string> {
  return (await gitBuffer(cwd, args, opts)).toString("utf8");
}

/** NUL-separated output as a list (empty entries dropped). */
export const zsplit = (text: string): string[] => text.split("\0").filter(Boolean);

/** The top of the working tree `cwd` is in, or undefined when it is not in a git repository (or git is missing). */
export async function repoTop(cwd: string): Promise<string | undefined> {
  try {
    return (await git(cwd, ["rev-parse", "--show-toplevel"])).trim() || undefined;
  } catch {
    return undefined;
  }
}
