/**
 * A stat walk that remembers the previous one (#36 item 6), for the walk worker (walk.worker.ts: synchronous
 * calls, never on the extension host's thread). A turn's two walks of an unchanged 10k-file workspace used to
 * list every folder again, ask the ignore matcher about every path again (a fresh matcher, re-reading every
 * folder's .gitignore) and send the whole listing back; now:
 * - a folder's listing (as the matcher sorted it) is reused while the folder's inode, mtime and ctime are the
 *   ones it was read at: creating, deleting or renaming an entry changes them (POSIX), editing a file does not,
 *   and every listed file is still lstat'ed at every walk — so edits, even deep in an unchanged folder, are
 *   seen. Only where that holds: Linux, local file systems known to keep it (not NFS or FUSE, whose
 *   attributes may be cached or made up), and never for a listing read within `RACY_MS` of the folder's last
 *   change (a change in the same timestamp tick would leave the stamp equal, as with git's "racy" index);
 * - the matcher is kept, and forgotten when a .gitignore on the way (the folders between the matcher's root
 *   and the workspace, and every walked folder) appears, disappears or changes stat;
 * - the result is the difference from the previous walk (listed files that are new or whose stat changed, and
 *   files no longer listed), so the caller reads a few entries instead of 10k.
 */
import { lstatSync, readdirSync, statfsSync, type Stats } from "node:fs";
import { join } from "node:path";
import { IgnoreMatcher } from "./gitignore";
import { sameStrings, statRange } from "./stat-pool";
import { sortListing, type StatInfo, type WalkDelta } from "./walk";

/** A listing read less than this long after its folder's last change is not reused (timestamp granularity). */
export const RACY_MS = 2000;

/**
 * Linux file systems whose folders' stamps change with every entry created, deleted or renamed, and are read
 * from the disk (statfs f_type): ext2/3/4, xfs, btrfs, tmpfs, f2fs, zfs.
 */
const TRUSTED_FS = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0xf2f52010, 0x2fc12fc1]);

interface Listing {
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  subdirs: string[];
  files: string[];
  /** The files' absolute paths (joined once per listing, not per walk). */
  paths: string[];
  /** The folder has a .gitignore (its stat is checked at every walk). */
  ignoreFile: boolean;
}

export interface WalkCacheOptions {
  /** The ignore matcher's root (the repository top, or the workspace). */
  top: string;
  /** The workspace's path below `top` ("" when it is the top). */
  prefix: string;
  /** git's excludes (global file, .git/info/exclude), as texts. */
  excludes?: string[];
  /** Walk only the folders below these (root-relative; default: the whole workspace, [""]). */
  roots?: readonly string[];
  /** Whether folders' stamps may be trusted at all (default: Linux, decided per file system). */
  trustFolders?: boolean;
  /** lstat of many files (absolute paths) at once (stat-pool.ts: on more cores), or undefined: on this thread. */
  statAll?: (paths: readonly string[]) => Float64Array | undefined;
}

export class WalkCache {
  readonly #root: string;
  readonly #opts: WalkCacheOptions;
  #matcher: IgnoreMatcher;
  readonly #listings = new Map<string, Listing>();
  /** .gitignore path (absolute) → its stamp when the matcher last read the rules. */
  readonly #ignoreStamps = new Map<string, string>();
  readonly #trustedDev = new Map<number, boolean>();
  /** The previous walk: the files it listed, in order, and their stats (size, mtime, inode each; NaN: gone). */
  #prev: { listed: string[]; stats: Float64Array } | undefined;
  #foldersRead = 0;

  constructor(root: string, opts: WalkCacheOptions) {
    this.#root = root;
    this.#opts = opts;
    this.#matcher = this.#newMatcher();
  }

  /** Same options as the ones this cache was made for. */
  fits(root: string, opts: WalkCacheOptions): boolean {
    const o = this.#opts;
    return (
      root === this.#root &&
      opts.top === o.top &&
      opts.prefix === o.prefix &&
      JSON.stringify(opts.excludes ?? []) === JSON.stringify(o.excludes ?? []) &&
      JSON.stringify(opts.roots ?? [""]) === JSON.stringify(o.roots ?? [""])
    );
  }

  /** How many folders the last walk listed from the disk (the others' listings were reused). */
  get foldersRead(): number {
    return this.#foldersRead;
  }

  /** Walks; `diff` = report against the previous walk (else every listed file). */
  walk(maxFiles: number, diff: boolean): WalkDelta {
    const start = Date.now();
    this.#foldersRead = 0;
    this.#checkAncestorIgnores();
    const listed: string[] = [];
    const paths: string[] = [];
    const dirs: string[] = [];
    let truncated = false;
    for (const [dir, listing] of this.#folders(start)) {
      dirs.push(dir);
      for (let i = 0; i < listing.files.length; i++) {
        listed.push(listing.files[i]!);
        paths.push(listing.paths[i]!);
        if (listed.length >= maxFiles) {
          truncated = true;
          break;
        }
      }
      if (truncated) break;
    }
    // every listed file is lstat'ed at every walk: an edit changes no folder's stamps
    const stats = this.#opts.statAll?.(paths) ?? statAllHere(paths);
    const prev = diff ? this.#prev : undefined;
    this.#prev = truncated ? undefined : { listed, stats };
    if (prev && sameStrings(prev.listed, listed)) return sameListDelta(listed, stats, prev.stats);
    const files = statMap(listed, stats);
    if (!prev) return { full: true, changed: files, removed: [], truncated, dirs };
    const before = statMap(prev.listed, prev.stats);
    const changed = new Map<string, StatInfo>();
    for (const [rel, s] of files) {
      const p = before.get(rel);
      if (!p || p.size !== s.size || p.mtimeMs !== s.mtimeMs || p.ino !== s.ino) changed.set(rel, s);
    }
    const removed: string[] = [];
    for (const rel of before.keys()) if (!files.has(rel)) removed.push(rel);
    return { full: false, changed, removed, truncated };
  }

  /**
   * Every folder the matcher lets through ("" = the root), no file stat'ed: the folders a git repository's
   * tracker watches (git's listings name files only). The listings are kept for the walks that may follow.
   */
  dirs(): string[] {
    this.#checkAncestorIgnores();
    return [...this.#folders(Date.now())].map(([dir]) => dir);
  }

  /** The folders and their listings, depth first in listing order. */
  *#folders(start: number): Generator<[string, Listing]> {
    const stack = [...(this.#opts.roots ?? [""])].reverse();
    while (stack.length) {
      const dir = stack.pop()!;
      const listing = this.#listing(dir, start);
      if (!listing) continue;
      yield [dir, listing];
      for (let i = listing.subdirs.length - 1; i >= 0; i--) stack.push(listing.subdirs[i]!);
    }
  }

  /** A folder's sorted listing: the remembered one while the folder's stamps hold, else read now. */
  #listing(dir: string, start: number): Listing | undefined {
    const abs = join(this.#root, dir);
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (!st?.isDirectory()) {
      this.#listings.delete(dir);
      return undefined;
    }
    const known = this.#listings.get(dir);
    let listing: Listing | undefined =
      known && known.ino === st.ino && known.mtimeMs === st.mtimeMs && known.ctimeMs === st.ctimeMs ? known : undefined;
    if (listing?.ignoreFile || !listing) {
      // a .gitignore that changed here re-decides this folder and everything below it
      if (this.#ignoreChanged(join(abs, ".gitignore"))) {
        this.#forgetBelow(dir);
        listing = undefined;
      }
    }
    if (listing) return listing;
    let names;
    this.#foldersRead++;
    try {
      names = readdirSync(abs, { withFileTypes: true });
    } catch {
      this.#listings.delete(dir);
      return undefined;
    }
    const toTop = (rel: string) => this.#toTop(rel);
    const sorted = sortListing(dir, names, this.#matcher, toTop);
    listing = {
      ino: st.ino,
      mtimeMs: st.mtimeMs,
      ctimeMs: st.ctimeMs,
      subdirs: sorted.subdirs,
      files: sorted.here,
      paths: sorted.here.map((rel) => join(this.#root, rel)),
      ignoreFile: names.some((d) => d.name === ".gitignore"),
    };
    if (this.#reusable(abs, st, start)) this.#listings.set(dir, listing);
    else this.#listings.delete(dir);
    return listing;
  }

  #reusable(abs: string, st: Stats, start: number): boolean {
    if (st.mtimeMs > start - RACY_MS) return false; // every change sets it to the time of the change
    let trusted = this.#trustedDev.get(st.dev);
    if (trusted === undefined) {
      trusted = this.#opts.trustFolders ?? trustsFolders(abs);
      this.#trustedDev.set(st.dev, trusted);
    }
    return trusted;
  }

  /** The .gitignore files between the matcher's root and the workspace (a workspace below a repository's top). */
  #checkAncestorIgnores(): void {
    const parts = this.#opts.prefix ? this.#opts.prefix.split("/") : [];
    for (let i = 0; i < parts.length; i++)
      if (this.#ignoreChanged(join(this.#opts.top, ...parts.slice(0, i), ".gitignore"))) this.#forgetBelow("");
  }

  /** Whether a .gitignore's stamp differs from the one the matcher's rules were read at (then it resets them). */
  #ignoreChanged(path: string): boolean {
    const s = lstatSync(path, { throwIfNoEntry: false });
    const stamp = s ? `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}` : "";
    const was = this.#ignoreStamps.get(path) ?? "";
    if (stamp === was) return false;
    if (stamp) this.#ignoreStamps.set(path, stamp);
    else this.#ignoreStamps.delete(path);
    this.#matcher.reset();
    return true;
  }

  #forgetBelow(dir: string): void {
    for (const d of [...this.#listings.keys()])
      if (!dir || d === dir || d.startsWith(`${dir}/`)) this.#listings.delete(d);
  }

  #newMatcher(): IgnoreMatcher {
    return new IgnoreMatcher(this.#opts.top, { extra: this.#opts.excludes });
  }

  #toTop(rel: string): string {
    const p = this.#opts.prefix;
    return p ? (rel ? `${p}/${rel}` : p) : rel;
  }
}

function statMap(listed: readonly string[], stats: Float64Array): Map<string, StatInfo> {
  const files = new Map<string, StatInfo>();
  for (let i = 0, k = 0; i < listed.length; i++, k += 3)
    if (!Number.isNaN(stats[k])) files.set(listed[i]!, { size: stats[k]!, mtimeMs: stats[k + 1]!, ino: stats[k + 2]! });
  return files;
}

/** The difference between two walks of the same list, read straight from the stat arrays (no map of 10k). */
function sameListDelta(listed: readonly string[], stats: Float64Array, before: Float64Array): WalkDelta {
  const changed = new Map<string, StatInfo>();
  const removed: string[] = [];
  for (let i = 0, k = 0; i < listed.length; i++, k += 3) {
    if (Number.isNaN(stats[k])) {
      if (!Number.isNaN(before[k])) removed.push(listed[i]!);
    } else if (stats[k] !== before[k] || stats[k + 1] !== before[k + 1] || stats[k + 2] !== before[k + 2])
      changed.set(listed[i]!, { size: stats[k]!, mtimeMs: stats[k + 1]!, ino: stats[k + 2]! });
  }
  return { full: false, changed, removed, truncated: false };
}

function statAllHere(paths: readonly string[]): Float64Array {
  const out = new Float64Array(paths.length * 3);
  statRange(paths, 0, paths.length, out);
  return out;
}

/** Whether the file system holding `path` keeps folders' stamps as `WalkCache` needs (Linux only). */
export function trustsFolders(path: string, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== "linux") return false;
  try {
    return trustedFsType(Number(statfsSync(path).type));
  } catch {
    return false;
  }
}

/** Whether a Linux file system (statfs f_type) is one of `TRUSTED_FS`: local, its stamps from this machine. */
export const trustedFsType = (type: number): boolean => TRUSTED_FS.has(type);
