/**
 * A stat walk of a workspace that skips what the ignore matcher ignores (and never follows symlinks). Used for
 * workspaces that are not git repositories and when directory watching is unavailable: then it runs at every
 * turn's start and end. Two forms:
 * - `walkWorkspace` reads the disk asynchronously (one folder listing at a time, the stats of a folder's files
 *   together), never blocking the caller's thread (#24) — but a promise per file costs ~3.5× the CPU of the
 *   synchronous calls (10k files: ~220 ms vs ~64 ms here). Only when the walk worker is not available;
 * - `WalkCache` (walk-cache.ts) makes the synchronous calls in a worker thread (walk.worker.ts, #36 item 6),
 *   remembers the previous walk, and sends back only what changed, packed (`packDelta` / `unpackDelta`).
 */
import { type Dirent, type Stats } from "node:fs";
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

export interface WalkOptions {
  maxFiles: number;
  /** Maps a root-relative path to the matcher's root (the repository top when the workspace is a sub-folder). */
  toTop?: (rel: string) => string;
  /** Walk only below this root-relative folder. */
  dir?: string;
}

/** One folder's listing: its subfolders to walk and its files to stat, as the matcher lets them through. */
export function sortListing(dir: string, names: Dirent[], matcher: IgnoreMatcher, toTop: (r: string) => string) {
  const subdirs: string[] = [];
  const here: string[] = [];
  for (const d of names) {
    const rel = dir ? `${dir}/${d.name}` : d.name;
    if (d.isDirectory()) {
      if (!matcher.ignores(toTop(rel), true)) subdirs.push(rel);
    } else if (d.isFile() && !matcher.ignores(toTop(rel), false)) here.push(rel);
  }
  return { subdirs, here };
}

export async function walkWorkspace(root: string, matcher: IgnoreMatcher, opts: WalkOptions): Promise<WalkResult> {
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
    const { subdirs, here } = sortListing(dir, names, matcher, toTop);
    stack.push(...subdirs);
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

/** Folder listings read at once by `walkDirs`. */
const DIR_CONCURRENCY = 16;

/**
 * Every folder below `root` the matcher lets through ("" = the root), listed level by level with a bounded number
 * of listings under way and no file stat'ed or matched: a git repository's folders to watch, those holding no
 * file too (empty ones, ones holding only empty folders), which git's listings never name. Only when the walk
 * worker is not available (`WalkCache.dirs` there): the matcher reads each folder's .gitignore synchronously.
 */
export async function walkDirs(root: string, matcher: IgnoreMatcher, toTop: (r: string) => string): Promise<string[]> {
  const dirs: string[] = [];
  for (let level = [""]; level.length;) {
    dirs.push(...level);
    const next: string[] = [];
    for (let i = 0; i < level.length; i += DIR_CONCURRENCY) {
      const batch = level.slice(i, i + DIR_CONCURRENCY);
      const listings = await Promise.all(
        batch.map((d) => readdir(join(root, d), { withFileTypes: true }).catch(() => [] as Dirent[])),
      );
      batch.forEach((dir, j) => {
        for (const d of listings[j]!) {
          const rel = dir ? `${dir}/${d.name}` : d.name;
          if (d.isDirectory() && !matcher.ignores(toTop(rel), true)) next.push(rel);
        }
      });
    }
    level = next;
  }
  return dirs;
}

/** A walk as the difference from the previous one (walk-cache.ts). With `full`, `changed` is every listed file. */
export interface WalkDelta {
  full: boolean;
  changed: Map<string, StatInfo>;
  /** Files the previous walk listed and this one does not. */
  removed: string[];
  truncated: boolean;
  /** With `full`: every folder the walk listed ("" = the root), the folders to watch (tracker.ts). */
  dirs?: string[];
}

/** A walk's delta as strings and one Float64Array (size, mtime, inode per changed file): cheap to post and read. */
export interface PackedDelta {
  full: boolean;
  paths: string;
  stats: Float64Array;
  removed: string;
  truncated: boolean;
  dirs?: string;
}

const SEP = "\0"; // never in a path
const split = (s: string) => (s ? s.split(SEP) : []);

export function packDelta(d: WalkDelta): PackedDelta {
  const stats = new Float64Array(d.changed.size * 3);
  let i = 0;
  for (const s of d.changed.values()) {
    stats[i++] = s.size;
    stats[i++] = s.mtimeMs;
    stats[i++] = s.ino;
  }
  const paths = [...d.changed.keys()].join(SEP);
  const dirs = d.dirs ? { dirs: d.dirs.join(SEP) } : {};
  return { full: d.full, paths, stats, removed: d.removed.join(SEP), truncated: d.truncated, ...dirs };
}

export function unpackDelta(p: PackedDelta): WalkDelta {
  const changed = new Map<string, StatInfo>();
  const paths = split(p.paths);
  for (let i = 0; i < paths.length; i++)
    changed.set(paths[i]!, { size: p.stats[i * 3]!, mtimeMs: p.stats[i * 3 + 1]!, ino: p.stats[i * 3 + 2]! });
  const dirs = p.dirs !== undefined ? { dirs: p.dirs.split(SEP) } : {}; // [""] (the root alone) joins to ""
  return { full: p.full, changed, removed: split(p.removed), truncated: p.truncated, ...dirs };
}
