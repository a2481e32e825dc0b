/**
 * What a tracker's turns start from (tracker.ts): the baseline, built once per workspace and process. In a git
 * repository the index gives the id of every clean tracked file without reading it (its content stays in git's
 * object database until a turn changes the file); only modified and untracked files are read. Elsewhere every file
 * is read once, and a manifest cache keeps the ids between runs. Then the watches are set up (watch-set.ts): all
 * granted ("watch"), some refused (still "watch", the folders left without one walked), none ("walk"); and the
 * clean tracked files in the walked part take their stat from one walk (else the first sync would read each).
 * More files than the limit: "off".
 */
import type { Logger } from "../log";
import type { BlobStore } from "./blob-store";
import type { LedgerLimits } from "./content";
import { gitWorkspace, repoOf } from "./git-plumbing";
import { IgnoreMatcher } from "./gitignore";
import { READ_CONCURRENCY, type Entry, type KnownFiles } from "./known-files";
import { inParallel } from "../util/at-once";
import { loadManifestCache } from "./manifest-cache";
import { isRacy } from "./racy";
import { relUnder } from "./rel-path";
import { TrackerWalks } from "./tracker-walks";
import type { StatInfo } from "./walk";
import type { WalkWorker } from "./walk-worker-client";
import { WatchSet } from "./watch-set";

export type TrackerMode = "watch" | "walk" | "off";

export interface BaselineOptions {
  blobs: BlobStore;
  limits: LedgerLimits;
  /** Watch directories (false: walks only); a number: at most that many watches (the OS's limit, simulated). */
  watch: boolean | number;
  cacheDir: string | undefined;
  walker: WalkWorker | undefined;
  logger: Logger;
}

/** The baseline's outcome; `files` holds the known files. */
export interface Baseline {
  mode: TrackerMode;
  /** Why disk changes are not tracked (mode "off"). */
  offReason?: string;
  /** The repository's top, when the workspace is in one; `prefix`: the workspace's path below it ("" = the top). */
  gitTop?: string;
  prefix: string;
  matcher: IgnoreMatcher;
  walks: TrackerWalks;
  /** The watches (mode "watch"): their `unwatched` folders are walked at every sync. */
  watcher?: WatchSet;
}

/** Maps a root-relative path to the matcher's root (the repository's top). */
export const toTop = (prefix: string, rel: string): string => (prefix ? (rel ? `${prefix}/${rel}` : prefix) : rel);

export async function buildBaseline(root: string, opts: BaselineOptions, files: KnownFiles): Promise<Baseline> {
  const repo = await repoOf(root);
  // git names the top `C:/x` on Windows: compared through the platform's path rules, not as strings
  const prefix = repo ? (relUnder(repo.top, root) ?? "") : "";
  const top = repo?.top ?? root;
  const matcher = new IgnoreMatcher(top, { extra: repo?.excludes });
  const scope = { root, top, prefix, excludes: repo?.excludes, matcher, toTop: (rel: string) => toTop(prefix, rel) };
  const walks = new TrackerWalks({ ...scope, maxFiles: opts.limits.maxFiles + 1 }, opts.walker);
  const b: Baseline = { mode: "walk", prefix, matcher, walks, ...(repo ? { gitTop: repo.top } : {}) };
  const off = (count: number): Baseline => {
    files.clear();
    const offReason = `${count} files exceed the ledger's limit of ${opts.limits.maxFiles}; only edits made through the editor's file methods are recorded`;
    opts.logger.warn(`edit ledger: ${root}: ${offReason}`);
    return { ...b, mode: "off", offReason };
  };
  let listed: string[] | undefined;
  if (repo) {
    const { clean, toRead, count } = await gitWorkspace(root, prefix);
    if (count > opts.limits.maxFiles) return off(count);
    for (const { path: rel, id } of clean)
      files.set(rel, { size: -1, mtimeMs: -1, ino: -1, inGit: true, state: { id, size: -1, stored: false } });
    await files.readAll(toRead);
  } else {
    const walk = await walks.whole();
    if (walk.truncated) return off(walk.changed.size);
    listed = walk.dirs;
    await readPlainFolder(root, walk.changed, opts, files);
  }
  // a plain folder's baseline walk listed the folders already; git's listings name files only
  if (opts.watch !== false) b.watcher = await startWatching(root, listed ?? (await walks.listDirs()), opts, files);
  if (b.watcher) b.mode = "watch";
  const tops = b.watcher?.unwatched;
  if (tops && !tops.length) return b;
  // walks compare stats: give the clean tracked files (known from the index, never read) theirs, in the part
  // that is walked (else the first sync would read each of them)
  if (repo) for (const [rel, st] of (await walks.whole(tops)).changed) files.adoptStat(rel, st);
  return b;
}

/** A plain folder's files: from the manifest cache where its row still matches the stat, else read. */
async function readPlainFolder(
  root: string,
  listed: ReadonlyMap<string, StatInfo>,
  opts: BaselineOptions,
  files: KnownFiles,
): Promise<void> {
  const cached = opts.cacheDir ? await loadManifestCache(opts.cacheDir, root) : new Map<string, Entry>();
  const toRead: string[] = [];
  const now = Date.now();
  const kept: [string, Entry][] = [];
  for (const [rel, st] of listed) {
    const c = cached.get(rel);
    const usable = c && c.size === st.size && c.mtimeMs === st.mtimeMs && c.ino === st.ino && !isRacy(st, now);
    if (usable) kept.push([rel, c]);
    else toRead.push(rel);
  }
  // a row whose content the blob store should hold is taken only while it does (looked for off the thread)
  const held = await inParallel(kept, READ_CONCURRENCY, ([, c]) =>
    c.state.stored ? (c.state.id ? opts.blobs.hasAsync(c.state.id) : Promise.resolve(false)) : Promise.resolve(true),
  );
  kept.forEach(([rel, c], i) => (held[i] ? files.set(rel, c) : toRead.push(rel)));
  await files.readAll(toRead);
}

/** The watches; undefined when the OS refused the root's (every sync walks then). */
async function startWatching(
  root: string,
  listed: readonly string[],
  opts: BaselineOptions,
  files: KnownFiles,
): Promise<WatchSet | undefined> {
  const limit = typeof opts.watch === "number" ? opts.watch : undefined;
  const set = WatchSet.start(root, listed, files.keys(), limit);
  if (set.unwatched.includes("")) {
    set.dispose();
    opts.logger.warn(`edit ledger: ${set.refused}; falling back to a stat walk per turn`);
    return undefined;
  }
  if (set.refused)
    opts.logger.warn(
      `edit ledger: ${set.refused}; ${set.unwatched.length} folder(s) left without a watch (and those below them) are stat-walked per turn`,
    );
  return set;
}
