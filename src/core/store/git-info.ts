/** The few git facts threads and snapshots record; every failure (no git, not a repo) reads as null. */
import { execFileSync } from "node:child_process";

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

export function gitInfo(cwd: string): { repoRoot: string | null; gitHead: string | null } {
  const repoRoot = git(cwd, ["rev-parse", "--show-toplevel"]);
  if (!repoRoot) return { repoRoot: null, gitHead: null };
  return { repoRoot, gitHead: git(cwd, ["rev-parse", "--verify", "-q", "HEAD"]) };
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
