/**
 * Path containment that holds on every platform: drive letters (`C:\ws` never contains `D:\ws\x`), UNC shares
 * (`\\srv\share\ws`), the `\\?\` long-path prefix, and case-insensitive file systems (Windows always; macOS by
 * default, probed per folder because a volume may be case-sensitive).
 */
import { stat } from "node:fs/promises";
import { HOST_PLATFORM, isWindows, type Platform } from "./host";

export interface ContainmentOptions {
  platform?: Platform;
  /** Compare ignoring case (default: the platform's default, see `caseInsensitiveDefault`). */
  caseInsensitive?: boolean;
}

/** `\\?\C:\x` → `C:\x`, `\\?\UNC\srv\share` → `\\srv\share` (Windows only; other paths unchanged). */
export function stripLongPathPrefix(path: string, p: Platform = HOST_PLATFORM): string {
  if (!isWindows(p)) return path;
  if (/^\\\\\?\\UNC\\/i.test(path)) return `\\\\${path.slice(8)}`;
  if (/^\\\\\?\\[A-Za-z]:/.test(path)) return path.slice(4);
  return path;
}

/** Windows and macOS (APFS / HFS+ default) ignore case; Linux does not. */
export function caseInsensitiveDefault(p: Platform = HOST_PLATFORM): boolean {
  return p.os === "win32" || p.os === "darwin";
}

/** True when `path` is `root` or lies below it. Both should be absolute and already resolved. */
export function isInside(root: string, path: string, opts: ContainmentOptions = {}): boolean {
  const p = opts.platform ?? HOST_PLATFORM;
  const P = p.path;
  let from = stripLongPathPrefix(root, p);
  let to = stripLongPathPrefix(path, p);
  // path.win32.relative already compares ignoring case; posix needs it done here.
  if (!isWindows(p) && (opts.caseInsensitive ?? caseInsensitiveDefault(p))) {
    from = from.toLowerCase();
    to = to.toLowerCase();
  }
  const rel = P.relative(from, to);
  return rel === "" || (!rel.startsWith(`..${P.sep}`) && rel !== ".." && !P.isAbsolute(rel));
}

/**
 * Whether the file system holding `dir` (an existing folder) ignores case: the same folder under a
 * case-swapped name is the same inode. `undefined` when its name has no letters to swap. The two stats run off the
 * host's thread (a permission decision's path guard probes each root once, #35).
 */
export async function probeCaseInsensitive(dir: string): Promise<boolean | undefined> {
  const name = dir.replace(/[\\/]+$/, "");
  const cut = Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1;
  const base = name.slice(cut);
  const swapped = [...base].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join("");
  if (swapped === base) return undefined;
  try {
    const [a, b] = await Promise.all([stat(name), stat(name.slice(0, cut) + swapped)]);
    return a.ino === b.ino && a.dev === b.dev;
  } catch {
    return false;
  }
}
