/**
 * The folders a thread's sessions were allowed to write (#35): when a session opens, the thread records the roots
 * its runtime's path guard allows (the window's workspace folders, a hosted run's `roots`, a worktree), as
 * the metadata field `folders`, once they reach beyond the thread's cwd; a later session adds its own (a thread
 * resumed in another window wrote there too). What guards writes by "the thread's folders" (ledger.restore) reads
 * them back through `recordedFolders`: the field is data from disk, so each folder must be a plain absolute path
 * (no `.` or `..`, not relative) and not a file system root, or it is ignored and named, never widening anything.
 */
import { realpath } from "node:fs/promises";
import { dirname, isAbsolute, normalize } from "node:path";
import type { ThreadMetadata } from "../model/metadata";
import type { MetadataPatch } from "../model/records";
import { isInside } from "../platform/paths";
import { realOrAncestor } from "../util/real-inside";

/** Why a recorded folder is not taken; undefined: it is. */
export function folderRefusal(folder: unknown): string | undefined {
  if (typeof folder !== "string" || !folder) return "not a path";
  if (folder.includes("\0")) return "not a path (a NUL character)";
  if (!isAbsolute(folder)) return "not an absolute path";
  if (normalize(folder) !== folder) return "not a plain path (a `.` or `..` segment, a doubled separator)";
  if (dirname(folder) === folder) return "a file system root";
  return undefined;
}

export interface RecordedFolders {
  /** The recorded folders that are taken. */
  folders: string[];
  /** The ones that are not, with why (a clear error names them). */
  ignored: { folder: string; why: string }[];
}

/** The thread's recorded folders, each checked (none recorded: none, as on threads older than the field). */
export function recordedFolders(metadata: Pick<ThreadMetadata, "folders">): RecordedFolders {
  const raw: unknown = metadata.folders;
  if (raw === undefined || raw === null) return { folders: [], ignored: [] };
  if (!Array.isArray(raw)) return { folders: [], ignored: [{ folder: String(raw).slice(0, 80), why: "not a list" }] };
  const out: RecordedFolders = { folders: [], ignored: [] };
  for (const f of raw as unknown[]) {
    const why = folderRefusal(f);
    if (why) out.ignored.push({ folder: String(f).slice(0, 200), why });
    else if (!out.folders.includes(f as string)) out.folders.push(f as string);
  }
  return out;
}

/** "'/' (a file system root), 'rel' (not an absolute path)": the ignored folders, for an error message. */
export const ignoredText = (ignored: RecordedFolders["ignored"]): string =>
  ignored.map((i) => `'${i.folder}' (${i.why})`).join(", ");

/** `path`'s real path (no link on the way), or `path` when it cannot be resolved; no thread waits on the disk. */
const realOr = (path: string): Promise<string> => realpath(path).catch(() => path);

/**
 * What a session that opened with the path guard's `roots` adds to the thread's `folders` (an empty patch when
 * nothing: no roots known, or all of them already there or only the thread's cwd). A root reached through a link
 * is recorded with its real path too: the guard checks, and the ledger records, a file by its real path.
 */
export async function foldersPatch(
  metadata: Pick<ThreadMetadata, "cwd" | "folders">,
  roots: readonly string[] | undefined,
): Promise<MetadataPatch> {
  if (!roots?.length) return {};
  const named = roots.map((r) => normalize(r));
  const withReal = (await Promise.all(named.map(async (r) => [r, await realOr(r)]))).flat();
  const before = metadata.folders !== undefined ? recordedFolders(metadata).folders : [metadata.cwd];
  const after = [...before];
  for (const root of withReal) if (!folderRefusal(root) && !after.includes(root)) after.push(root);
  return after.length === before.length ? {} : { folders: after };
}

/**
 * The paths of `paths` a write would put outside `folders` (a restore's or an undo's files): one that is not a plain
 * absolute path or not below a folder as named, or whose real location is not below a folder's real path. The
 * second catches a folder on the way that was swapped for a link to elsewhere after the ledger recorded the file
 * (an agent's terminal can do that): a write through it would land outside. A path whose real location cannot be
 * read (no permission) counts as outside: refused, never written blind.
 */
export async function outsideFolders(folders: readonly string[], paths: readonly string[]): Promise<string[]> {
  const real = await Promise.all(folders.map(realOr));
  const outside = async (path: string): Promise<boolean> => {
    if (normalize(path) !== path || !folders.some((r) => isInside(r, path))) return true;
    const at = await realOrAncestor(path).catch(() => undefined);
    return at === undefined || !real.some((r) => isInside(r, at));
  };
  const flags = await Promise.all(paths.map(outside));
  return paths.filter((_, i) => flags[i]);
}
