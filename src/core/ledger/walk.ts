/**
 * A stat walk of a workspace that skips what the ignore matcher ignores (and never follows symlinks). Used for
 * workspaces that are not git repositories and when directory watching is unavailable: then it runs at every
 * turn's end, so it reads the disk asynchronously (one folder listing at a time, the stats of a folder's files
 * together), never blocking the extension host's thread (#24).
 */
import type { Stats } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { IgnoreMatcher } from "./gitignore";

export interface StatInfo {
  size: number;
  mtimeMs: number;
  ino: number;
}

export const statInfo = (s: Stats): StatInfo => ({ size: s.size, mtimeMs: s.mtimeMs, ino: s.ino });

export interface WalkResult {
  files: Map<string, StatInfo>;
  dirs: string[];
  /** Set when the walk stopped at `maxFiles`. */
  truncated: boolean;
}

/**
 * `toTop` maps a root-relative path to the matcher's root (the repository top when the workspace is a
 * sub-folder of one). `only`, when given, limits the walk to those root-relative files (a git listing).
 */
export async function walkWorkspace(
  root: string,
  matcher: IgnoreMatcher,
  opts: { maxFiles: number; toTop?: (rel: string) => string; dir?: string },
): Promise<WalkResult> {
  const toTop = opts.toTop ?? ((r: string) => r);
  const files = new Map<string, StatInfo>();
  const dirs: string[] = [];
  const stack = [opts.dir ?? ""];
  while (stack.length) {
    const dir = stack.pop()!;
    dirs.push(dir);
    let names;
    try {
      names = await readdir(join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    const here: string[] = [];
    for (const d of names) {
      const rel = dir ? `${dir}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (!matcher.ignores(toTop(rel), true)) stack.push(rel);
      } else if (d.isFile() && !matcher.ignores(toTop(rel), false)) here.push(rel);
    }
    const stats = await Promise.all(here.map((rel) => lstat(join(root, rel)).catch(() => undefined)));
    for (let i = 0; i < here.length; i++) {
      const s = stats[i];
      if (!s) continue;
      files.set(here[i]!, statInfo(s));
      if (files.size >= opts.maxFiles) return { files, dirs, truncated: true };
    }
  }
  return { files, dirs, truncated: false };
}
