/** Whether a path, with its symbolic links resolved, lies inside a folder: links never carry a read or write out. */
import { lstat, realpath } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";

/** `path` is `root` or below it (both as given: resolve links first). */
export const isInside = (root: string, path: string): boolean =>
  path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/** The real path of `path`, or of its nearest existing ancestor with the missing rest appended. */
export async function realOrAncestor(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if ((code !== "ENOENT" && code !== "ENOTDIR") || dirname(path) === path) throw err;
    return join(await realOrAncestor(dirname(path)), relative(dirname(path), path));
  }
}

/** Whether `path`'s real location (see realOrAncestor) is inside `realRoot` (a real path). */
export async function realInside(realRoot: string, path: string): Promise<boolean> {
  return isInside(realRoot, await realOrAncestor(path));
}

/** Whether `path` is itself a symbolic link (false when it does not exist). */
export const isSymlink = (path: string): Promise<boolean> =>
  lstat(path).then(
    (s) => s.isSymbolicLink(),
    () => false,
  );
