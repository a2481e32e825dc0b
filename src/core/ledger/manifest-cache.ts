/**
 * Between runs, a workspace that is not a git repository keeps its manifest (path → stat + content id) in
 * `<cacheDir>/<sha1(root)>.json`, so a new session re-reads only files whose stat changed. Derived data: a
 * missing, stale or unreadable cache just means reading the workspace again.
 *
 * No synchronous file call (the extension host's thread never waits on the disk). Saves are coalesced per cache
 * file in this process: at most one write in flight; a newer snapshot replaces the one queued behind it (the last
 * wins); a failed write is a warning and the next save still writes. A load while a save of the same file is
 * pending takes that snapshot, the newest, instead of the file.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../log";
import { writeFileAtomicAsync } from "../store/atomic-write";
import { parseState, type FileState } from "./content";
import type { StatInfo } from "./walk";

const VERSION = 1;
type Row = [rel: string, size: number, mtimeMs: number, ino: number, state: FileState];
export type ManifestEntries = Map<string, StatInfo & { state: FileState }>;

interface Snapshot {
  root: string;
  rows: Row[];
  logger: Logger;
}

/** Per cache file: the newest snapshot saved, the one waiting for the write in flight, and when all are written. */
interface Pending {
  latest: Snapshot;
  queued: Snapshot | undefined;
  done: Promise<void>;
}

const pending = new Map<string, Pending>();

const fileFor = (dir: string, root: string) =>
  join(dir, `${createHash("sha1").update(root).digest("hex").slice(0, 16)}.json`);

/** The cached manifest of `root` (empty when there is none, or it does not read back). */
export async function loadManifestCache(dir: string, root: string): Promise<ManifestEntries> {
  const file = fileFor(dir, root);
  const saving = pending.get(file)?.latest;
  if (saving?.root === root) return fromRows(saving.rows);
  try {
    const data = JSON.parse(await readFile(file, "utf8")) as { v: number; root: string; rows: unknown };
    if (data.v !== VERSION || data.root !== root || !Array.isArray(data.rows)) return new Map();
    return fromRows(data.rows);
  } catch {
    return new Map(); // no cache yet, or an unreadable one: the workspace is read again
  }
}

/**
 * Saves `entries` as `root`'s manifest (a snapshot taken now). Resolves once it, or a newer snapshot that replaced
 * it, is written or failed (a warning); never rejects.
 */
export function saveManifestCache(
  dir: string,
  root: string,
  entries: ReadonlyMap<string, StatInfo & { state: FileState }>,
  logger: Logger,
): Promise<void> {
  const file = fileFor(dir, root);
  const snap: Snapshot = {
    root,
    rows: [...entries].map(([rel, e]) => [rel, e.size, e.mtimeMs, e.ino, e.state]),
    logger,
  };
  const p = pending.get(file);
  if (p) {
    p.latest = p.queued = snap;
    return p.done;
  }
  const started: Pending = { latest: snap, queued: snap, done: Promise.resolve() };
  pending.set(file, started);
  started.done = (async () => {
    try {
      for (let next = started.queued; next; next = started.queued) {
        started.queued = undefined;
        await write(file, next);
      }
    } finally {
      pending.delete(file);
    }
  })();
  return started.done;
}

async function write(file: string, { root, rows, logger }: Snapshot): Promise<void> {
  try {
    await writeFileAtomicAsync(file, JSON.stringify({ v: VERSION, root, rows }));
  } catch (err) {
    logger.warn(`edit ledger: could not save the manifest cache for ${root}: ${(err as Error).message}`);
  }
}

function fromRows(rows: readonly unknown[]): ManifestEntries {
  const out: ManifestEntries = new Map();
  for (const r of rows) {
    if (!Array.isArray(r)) continue;
    const state = parseState(r[4]);
    if (!state || typeof r[0] !== "string" || typeof r[1] !== "number" || typeof r[2] !== "number") continue;
    out.set(r[0], { size: r[1], mtimeMs: r[2], ino: Number(r[3]), state });
  }
  return out;
}
