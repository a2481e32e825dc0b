/**
 * Linux: how a denied FILE stays hidden when it is replaced outside the sandbox. A mount over the file itself
 * (`--ro-bind /dev/null FILE`) sits on that file's directory entry, and since Linux 3.18 a rename over it (or an
 * unlink) in another mount namespace detaches the mount: the editor's or tool's tmp → rename save shows the new
 * file inside a running sandbox. So the folder that holds it is hidden instead (an empty tmpfs, read-only once
 * bwrap made its mount points) and its other entries are shown again one by one (a bind each, a symlink as the same
 * symlink): the denied name does not exist inside, whatever happens to it outside. The folder's own entries are
 * taken when the plan is made: one created outside later does not show inside; one replaced outside by a rename
 * keeps its old version inside (its bind holds the old file), never an error. Folders inside the shown entries
 * stay live. A folder the agent may write (at or inside a writable root) cannot be hidden so (its new files
 * would land on the tmpfs): its denied files keep the mount over the file, and mask-guard.ts stops the sandbox
 * when one is replaced. The file system's root is never hidden.
 */
import { readdir, readlink, realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { isInside } from "../platform/paths";
import type { HiddenFolder } from "./policy";

interface Rules {
  writable: readonly string[];
  denyRead: readonly { path: string; dir: boolean }[];
  readOnly: readonly string[];
}

const atOrInside = (roots: readonly string[], path: string) =>
  roots.some((root) => isInside(root, path, { caseInsensitive: false }));

/** The folder `path` is in, by its real path, or undefined when it cannot be resolved. */
async function realParent(path: string): Promise<string | undefined> {
  try {
    return await realpath(dirname(path));
  } catch {
    return undefined;
  }
}

async function entriesOf(folder: string, skip: (path: string) => boolean): Promise<HiddenFolder["entries"]> {
  const out: HiddenFolder["entries"] = [];
  for (const d of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, d.name);
    if (skip(path)) continue;
    if (d.isSymbolicLink()) {
      const link = await readlink(path).catch(() => undefined);
      if (link !== undefined) out.push({ path, link });
    } else out.push({ path });
  }
  return out;
}

/**
 * The folders to hide for `rules`' denied files, and the denied files so covered (both their given and real
 * paths). A folder that vanished while it was read is left out (its files keep the mount over them).
 */
export async function hiddenFolders(rules: Rules): Promise<{ folders: HiddenFolder[]; covered: Set<string> }> {
  const deniedDirs = rules.denyRead.filter((d) => d.dir).map((d) => d.path);
  const names = new Map<string, Set<string>>();
  const byFolder = new Map<string, string[]>();
  for (const { path, dir } of rules.denyRead) {
    if (dir) continue;
    const folder = await realParent(path);
    if (!folder || folder === dirname(folder)) continue;
    if (atOrInside(rules.writable, folder) || atOrInside(deniedDirs, folder)) continue;
    if (!names.has(folder)) names.set(folder, new Set());
    names.get(folder)!.add(basename(path));
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), path]);
  }
  // an entry with a rule of its own (a writable state file, a denied folder, another hidden folder) is left to it
  const ruled = new Set([...rules.writable, ...rules.denyRead.map((d) => d.path), ...rules.readOnly, ...names.keys()]);
  const folders: HiddenFolder[] = [];
  const covered = new Set<string>();
  for (const [folder, hide] of names) {
    const skip = (path: string) => hide.has(basename(path)) || ruled.has(path);
    const entries = await entriesOf(folder, skip).catch(() => undefined);
    if (!entries) continue;
    folders.push({ path: folder, entries });
    for (const path of byFolder.get(folder)!) covered.add(path);
  }
  return { folders, covered };
}
