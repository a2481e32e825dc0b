/**
 * Between runs, a workspace that is not a git repository keeps its manifest (path → stat + content id) in
 * `<cacheDir>/<sha1(root)>.json`, so a new session re-reads only files whose stat changed. Derived data: a
 * missing, stale or unreadable cache just means reading the workspace again.
 *
 * The file is JSONL: a header line `{"v":2,"root":…}`, then one row per line. It is encoded and parsed `CHUNK` rows at
 * a time with a turn of the event loop between chunks, so a 50k-file folder's cache never holds the extension host's
 * thread for one long stretch (it did for hundreds of ms as one JSON document: `npm run bench -- manifest`).
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

const VERSION = 2;
/** Rows encoded or parsed between two turns of the event loop. */
const CHUNK = 2_000;
type Entry = StatInfo & { state: FileState };
export type ManifestEntries = Map<string, Entry>;

/** The entries as they were when saved: the tracker replaces an entry, never changes one, so the pairs suffice. */
interface Snapshot {
  root: string;
  pairs: [string, Entry][];
  logger: Logger;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

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
  if (saving?.root === root) return new Map(saving.pairs);
  try {
    return await parseRows(await readFile(file, "utf8"), root);
  } catch {
    return new Map(); // no cache yet, or an unreadable one: the workspace is read again
  }
}

/** The rows of a cache file for `root` (none when it is another version or root), parsed a chunk at a time. */
async function parseRows(text: string, root: string): Promise<ManifestEntries> {
  const out: ManifestEntries = new Map();
  let at = text.indexOf("\n");
  const head = JSON.parse(at < 0 ? text : text.slice(0, at)) as { v?: unknown; root?: unknown };
  if (head.v !== VERSION || head.root !== root) return out;
  for (let n = 1; at >= 0 && at < text.length - 1; n++) {
    const end = text.indexOf("\n", at + 1);
    const line = text.slice(at + 1, end < 0 ? text.length : end);
    at = end;
    if (n % CHUNK === 0) await turn();
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      continue; // a bad row is skipped
    }
    addRow(out, row);
  }
  return out;
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
  const snap: Snapshot = { root, pairs: [...entries], logger };
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

async function write(file: string, { root, pairs, logger }: Snapshot): Promise<void> {
  try {
    const parts = [`${JSON.stringify({ v: VERSION, root })}\n`];
    for (let i = 0; i < pairs.length; i += CHUNK) {
      if (i > 0) await turn();
      let chunk = "";
      for (const [rel, e] of pairs.slice(i, i + CHUNK))
        chunk += `${JSON.stringify([rel, e.size, e.mtimeMs, e.ino, e.state])}\n`;
      parts.push(chunk);
    }
    await writeFileAtomicAsync(file, parts.join(""));
  } catch (err) {
    logger.warn(`edit ledger: could not save the manifest cache for ${root}: ${(err as Error).message}`);
  }
}

function addRow(out: ManifestEntries, r: unknown): void {
  if (!Array.isArray(r)) return;
  const state = parseState(r[4]);
  if (!state || typeof r[0] !== "string" || typeof r[1] !== "number" || typeof r[2] !== "number") return;
  out.set(r[0], { size: r[1], mtimeMs: r[2], ino: Number(r[3]), state });
}
