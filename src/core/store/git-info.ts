/** The few git facts threads and snapshots record; every failure (no git, not a repo) reads as null. */
import { execFileSync } from "node:child_process";
import { runCommand } from "../platform/run-to-end";

export type GitInfo = { repoRoot: string | null; gitHead: string | null };

function git(cwd: string, args: string[]): string | null {
  try {
    return (
      execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 5000 }).trim() ||
      null
    );
  } catch {
    return null;
  }
}

export function gitInfo(cwd: string): GitInfo {
  const repoRoot = git(cwd, ["rev-parse", "--show-toplevel"]);
  if (!repoRoot) return { repoRoot: null, gitHead: null };
  return { repoRoot, gitHead: git(cwd, ["rev-parse", "--verify", "-q", "HEAD"]) };
}

async function gitAsync(cwd: string, args: string[]): Promise<string | null> {
  const r = await runCommand({ file: "git", args, cwd, timeoutMs: 5000 });
  return r.code === 0 ? r.stdout.trim() || null : null;
}

/**
 * `gitInfo` without blocking the caller's thread: a session start on the extension host runs two git processes
 * for it (~100 ms each on a loaded machine, a long task per session with execFileSync; #24), through the
 * spawner there (platform/run-to-end.ts's runCommand).
 */
export async function gitInfoAsync(cwd: string): Promise<GitInfo> {
  const repoRoot = await gitAsync(cwd, ["rev-parse", "--show-toplevel"]);
  if (!repoRoot) return { repoRoot: null, gitHead: null };
  return { repoRoot, gitHead: await gitAsync(cwd, ["rev-parse", "--verify", "-q", "HEAD"]) };
}

/** Whether `commit` exists in the repository at `cwd`. */
export function commitExists(cwd: string, commit: string): boolean {
  if (!/^[0-9a-f]{4,64}$/i.test(commit)) return false;
  return gitOk(cwd, ["cat-file", "-e", `${commit}^{commit}`]);
}

function gitOk(cwd: string, args: string[]): boolean {
  try {
    execFileSync("git", args, { cwd, stdio: "ignore", timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}
