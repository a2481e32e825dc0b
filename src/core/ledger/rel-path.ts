/**
 * The ledger's workspace-relative paths are `/`-separated on every platform (ledger records, gitignore
 * matching, git's own listings, directory watches). These helpers convert at the edges through the platform
 * seam, so Windows paths (`\` separators, drive letters, `C:/x` from git, case) are handled, and the Windows
 * branch is unit-tested on Linux with `path.win32`.
 */
import { HOST_PLATFORM, isWindows, type Platform } from "../platform/host";

/** `a\b` → `a/b` on Windows, where both are separators; unchanged elsewhere (`\` is a file-name character there). */
export function toSlashes(rel: string, p: Platform = HOST_PLATFORM): string {
  return isWindows(p) ? rel.replace(/\\/g, "/") : rel;
}

/**
 * `abs` relative to `root`, `/`-separated ("" for the root itself), or undefined when it is not below `root`.
 * On Windows `C:\ws`, `c:/ws` and git's `C:/ws` name the same folder.
 */
export function relUnder(root: string, abs: string, p: Platform = HOST_PLATFORM): string | undefined {
  const P = p.path;
  const rel = P.relative(root, abs);
  if (rel === "") return "";
  if (rel === ".." || rel.startsWith(`..${P.sep}`) || P.isAbsolute(rel)) return undefined;
  return toSlashes(rel, p);
}

/** A directory watch's report: `name` (a child of the watched `dir`, in the platform's form) → a relative path. */
export function childRel(dir: string, name: string, p: Platform = HOST_PLATFORM): string {
  const child = toSlashes(name, p);
  return dir ? `${dir}/${child}` : child;
}
