/** A git repository in a temp folder (worktrees go beside it, so the temp folder holds both). */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

export function g(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "-c", "commit.gpgsign=false", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Writes `files` (relative path → text) under `root`. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

/** `fn(repo, dir)` with `repo` = `<dir>/repo`, a repository whose first commit holds `files`. */
export function withRepo<T>(files: Record<string, string>, fn: (repo: string, dir: string) => Promise<T>): Promise<T> {
  return withTmpDir("acp-wt-", async (dir) => {
    const repo = join(dir, "repo");
    mkdirSync(repo);
    g(repo, "init", "-q", "-b", "main");
    writeFiles(repo, files);
    g(repo, "add", "-A");
    g(repo, "commit", "-qm", "seed", "--allow-empty");
    return fn(repo, dir);
  });
}

/** A git repository at `path` (made) with one empty commit on `main`: its path. */
export function repoAt(path: string): string {
  mkdirSync(path, { recursive: true });
  g(path, "init", "-q", "-b", "main");
  g(path, "commit", "-qm", "seed", "--allow-empty");
  return path;
}
