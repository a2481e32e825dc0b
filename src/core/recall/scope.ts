/**
 * Repo scope: the git root found by walking up from a cwd. A `.git` FILE marks a worktree (or submodule); a
 * worktree maps to its main repository so sessions from every worktree of one repo share a scope.
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

const cache = new Map<string, string>();

function worktreeMain(gitFile: string, dir: string): string | undefined {
  try {
    const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(gitFile, "utf8"));
    if (!m) return undefined;
    const gitdir = isAbsolute(m[1].trim()) ? m[1].trim() : resolve(dir, m[1].trim());
    let common = gitdir;
    try {
      const c = readFileSync(join(gitdir, "commondir"), "utf8").trim();
      common = isAbsolute(c) ? c : resolve(gitdir, c);
    } catch {
      return dir; // a submodule or a plain gitdir link: the folder itself is the repo
    }
    return dirname(common);
  } catch {
    return undefined;
  }
}

/** The repo root for `cwd`, or `cwd` itself when no `.git` is found (or the folder no longer exists). */
export function repoRoot(cwd: string): string {
  const start = resolve(cwd);
  const hit = cache.get(start);
  if (hit !== undefined) return hit;
  let dir = start;
  let found: string | undefined;
  for (;;) {
    const git = join(dir, ".git");
    try {
      const st = statSync(git);
      found = st.isDirectory() ? dir : (worktreeMain(git, dir) ?? dir);
      break;
    } catch {
      // keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const root = found ?? start;
  if (cache.size > 4096) cache.clear();
  cache.set(start, root);
  return root;
}
