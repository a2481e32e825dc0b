/**
 * Between runs, a workspace that is not a git repository keeps its manifest (path → stat + content id) in
 * `<cacheDir>/<sha1(root)>.json`, so a new session re-reads only files whose stat changed. Derived data: a
 * missing, stale or unreadable cache just means reading the workspace again.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../log";
import { writeFileAtomic } from "../store/atomic-write";
import { parseState, type FileState } from "./content";
import type { StatInfo } from "./walk";

const VERSION = 1;
type Row = [rel: string, size: number, mtimeMs: number, ino: number, state: FileState];

const fileFor = (dir: string, root: string) =>
  join(dir, `${createHash("sha1").update(root).digest("hex").slice(0, 16)}.json`);

export function loadManifestCache(dir: string, root: string): Map<string, StatInfo & { state: FileState }> {
  const out = new Map<string, StatInfo & { state: FileState }>();
  try {
    const data = JSON.parse(readFileSync(fileFor(dir, root), "utf8")) as { v: number; root: string; rows: Row[] };
    if (data.v !== VERSION || data.root !== root || !Array.isArray(data.rows)) return out;
    for (const r of data.rows) {
      const state = Array.isArray(r) ? parseState(r[4]) : undefined;
      if (!state || typeof r[0] !== "string" || typeof r[1] !== "number" || typeof r[2] !== "number") continue;
      out.set(r[0], { size: r[1], mtimeMs: r[2], ino: Number(r[3]), state });
    }
  } catch {
    // no cache yet, or an unreadable one: the workspace is read again
  }
  return out;
}

export function saveManifestCache(
  dir: string,
  root: string,
  entries: ReadonlyMap<string, StatInfo & { state: FileState }>,
  logger: Logger,
): void {
  const rows: Row[] = [...entries].map(([rel, e]) => [rel, e.size, e.mtimeMs, e.ino, e.state]);
  try {
    writeFileAtomic(fileFor(dir, root), JSON.stringify({ v: VERSION, root, rows }));
  } catch (err) {
    logger.warn(`edit ledger: could not save the manifest cache for ${root}: ${(err as Error).message}`);
  }
}
