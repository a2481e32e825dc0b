/**
 * Where worktrees live: beside the repository, in a hidden folder of their own, `<parent>/.<repo>.worktrees/<id>`.
 * Beside (not inside) so the main workspace's watchers, searches and ledger never see a second copy of the
 * tree; next to it (not in the data home) so the agent's tools that look upward from the cwd (package
 * managers, editor config) find the same parents as in the repository, and the user finds them with the repo.
 */
import { randomBytes } from "node:crypto";
import { basename, dirname, join, resolve, sep } from "node:path";

export function worktreesDirOf(repo: string): string {
  return join(dirname(repo), `.${basename(repo)}.worktrees`);
}

/** A short random id for a new worktree folder (threads started in the same millisecond still differ). */
export function newWorktreeId(): string {
  return randomBytes(4).toString("hex");
}

/** Whether `path` is a worktree folder we manage for `repo` (only those are ever deleted). */
export function isManagedPath(repo: string, path: string): boolean {
  const dir = resolve(worktreesDirOf(repo)) + sep;
  const p = resolve(path);
  return p.startsWith(dir) && !p.slice(dir.length).includes(sep) && p.length > dir.length;
}
