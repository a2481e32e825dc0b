/**
 * A synchronous stat walk of a workspace that skips what the ignore matcher ignores (and never follows
 * symlinks). Used for workspaces that are not git repositories and when directory watching is unavailable.
 */
import { lstatSync, readdirSync, type Stats } from "node:fs";
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
export function walkWorkspace(
  root: string,
  matcher: IgnoreMatcher,
  opts: { maxFiles: number; toTop?: (rel: string) => string; dir?: string },
): WalkResult {
  const toTop = opts.toTop ?? ((r: string) => r);
  const files = new Map<string, StatInfo>();
  const dirs: string[] = [];
  const stack = [opts.dir ?? ""];
  while (stack.length) {
    const dir = stack.pop()!;
    dirs.push(dir);
    let names;
    try {
      names = readdirSync(join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const d of names) {
      const rel = dir ? `${dir}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (!matcher.ignores(toTop(rel), true)) stack.push(rel);
      } else if (d.isFile()) {
        if (matcher.ignores(toTop(rel), false)) continue;
        let s: Stats;
        try {
          s = lstatSync(join(root, rel));
        } catch {
          continue;
        }
        files.set(rel, statInfo(s));
        if (files.size >= opts.maxFiles) return { files, dirs, truncated: true };
      }
    }
  }
  return { files, dirs, truncated: false };
}
