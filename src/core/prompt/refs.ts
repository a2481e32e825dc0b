/**
 * Context refs from plain inputs: URIs (`file:///abs#L1:3`, the fragment Zed uses for line ranges), chip
 * labels, and the CLI's `PATH[:L1-L2]` syntax. One place, so the editor and the CLI name things alike.
 */
import { basename, isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { AcpThreadsError } from "../errors";
import type { ContextItem, ContextRef, LineRange } from "../model/context";

export const THREAD_URI_PREFIX = "acp-threads://thread/";
export const PROBLEMS_URI = "acp-threads://problems";

export function fileUri(absPath: string, range?: LineRange): string {
  const base = pathToFileURL(absPath).href;
  return range ? `${base}#L${range.start}:${range.end}` : base;
}

export function folderUri(absPath: string): string {
  const href = pathToFileURL(absPath).href;
  return href.endsWith("/") ? href : `${href}/`;
}

export const rangeLabel = (r: LineRange): string => (r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`);

export function fileRef(absPath: string): ContextRef {
  return { kind: "file", label: basename(absPath), uri: fileUri(absPath), path: absPath };
}

export function folderRef(absPath: string): ContextRef {
  return { kind: "folder", label: `${basename(absPath)}/`, uri: folderUri(absPath), path: absPath };
}

export function selectionRef(absPath: string, range: LineRange): ContextRef {
  return {
    kind: "selection",
    label: `${basename(absPath)}:${rangeLabel(range)}`,
    uri: fileUri(absPath, range),
    path: absPath,
    range,
  };
}

export function symbolRef(absPath: string, name: string, range: LineRange): ContextRef {
  return { kind: "symbol", label: name, uri: fileUri(absPath, range), path: absPath, range };
}

export function threadRef(threadId: string, title: string): ContextRef {
  return { kind: "thread", label: title, uri: `${THREAD_URI_PREFIX}${threadId}`, threadId };
}

/** Checks a range: positive integers, start ≤ end. */
export function validRange(r: unknown): r is LineRange {
  const v = r as LineRange | null;
  return (
    !!v &&
    Number.isInteger(v.start) &&
    Number.isInteger(v.end) &&
    v.start >= 1 &&
    v.end >= v.start &&
    v.end <= 100_000_000
  );
}

/**
 * `PATH`, `PATH:L`, `PATH:L1-L2` (also `PATH:L1:L2`, `PATH#L1-L2`) → a file or selection item, the path
 * resolved against `cwd`. A path whose name really ends in `:digits` is taken as a range: name such files
 * with `./` and no suffix is possible only by renaming, as in most tools (git, rg) that use the same syntax.
 */
export function parseFileArg(arg: string, cwd: string): ContextItem {
  const m = /^(.*?)(?::|#L?)(\d+)(?:[-:]L?(\d+))?$/.exec(arg);
  const pathPart = m && m[1] ? m[1] : arg;
  if (!pathPart.trim()) throw new AcpThreadsError("usage", `--file needs a path, got '${arg}'`);
  const abs = isAbsolute(pathPart) ? pathPart : resolve(cwd, pathPart);
  if (!m || !m[1]) return fileRef(abs);
  const start = Number(m[2]);
  const end = m[3] === undefined ? start : Number(m[3]);
  const range = { start, end };
  if (!validRange(range))
    throw new AcpThreadsError(
      "usage",
      `--file ${arg}: lines must be 1-based with start ≤ end (e.g. ${pathPart}:10-20)`,
    );
  return selectionRef(abs, range);
}
