/**
 * Between runs, a workspace that is not a git repository keeps its manifest (path → stat + content id) in
 * `<cacheDir>/<sha1(root)>.json`, so a new session re-reads only files whose stat changed. Derived data: a
 * missing, stale or unreadable cache just means reading the workspace again.
 *
 * The file is JSONL: a header line `{"v":2,"root":…}`, then one row per line. It is never one string: the save
 * encodes `CHUNK` rows at a time and writes each chunk as it is made (tmp → fsync → rename); the load reads and
 * decodes a slice at a time (store/read-slices.ts) and parses its lines `PARSE_BATCH` at a time as one JSON array.
 * So a 50k-file folder's cache never holds the extension host's thread for one long stretch (`npm run bench --
 * manifest`).
 *
 * No synchronous file call (the extension host's thread never waits on the disk). Saves are coalesced per cache
 * file in this process: at most one write in flight; a newer snapshot replaces the one queued behind it (the last
 * wins); a failed write is a warning and the next save still writes. A load while a save of the same file is
 * pending takes that snapshot, the newest, instead of the file.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { Logger } from "../log";
import { writeFileAtomicAsync } from "../store/atomic-write";
import { readLineSlices } from "../store/read-slices";
import { parseState, type FileState } from "./content";
import type { StatInfo } from "./walk";

const VERSION = 2;
/** Rows encoded per write (the event loop turns while each is written). */
const CHUNK = 2_000;
/**
 * Lines parsed in one `JSON.parse`: V8 parses a couple of hundred short lines as one array a little faster than one
 * by one, and thousands much slower (measured here: 200 lines ~75 ms, one by one ~80 ms, 2,000 ~330 ms per 100k rows).
 */
const PARSE_BATCH = 200;
type Entry = StatInfo & { state: FileState };
export type ManifestEntries = Map<string, Entry>;

/** The entries as they were when saved: the tracker replaces an entry, never changes one, so the pairs suffice. */
interface Snapshot {
  root: string;
  pairs: [string, Entry][];
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
  if (saving?.root === root) return new Map(saving.pairs);
  try {
    return await parseRows(readLineSlices(file), root);
  } catch {
    return new Map(); // no cache yet, or an unreadable one: the workspace is read again
  }
}

/** The rows of a cache file for `root` (none when it is another version or root), a slice's lines at a time. */
async function parseRows(slices: AsyncIterable<string[]>, root: string): Promise<ManifestEntries> {
  const out: ManifestEntries = new Map();
  let head: { v?: unknown; root?: unknown } | undefined;
  for await (const lines of slices) {
    if (!head) {
      head = JSON.parse(lines.shift()!) as { v?: unknown; root?: unknown };
      if (head.v !== VERSION || head.root !== root) return out;
    }
    for (let i = 0; i < lines.length; i += PARSE_BATCH)
      for (const row of parseLines(lines.slice(i, i + PARSE_BATCH))) addRow(out, row);
  }
  return out;
}

/**
 * The lines as JSON values: all in one `JSON.parse` (one call instead of thousands); when that fails or does not give
 * one value per line (a torn or corrupt line), each line on its own, a bad one as undefined (its row is skipped).
 */
function parseLines(lines: string[]): unknown[] {
  try {
    const all = JSON.parse(`[${lines.join(",")}]`) as unknown[];
    if (all.length === lines.length) return all;
  } catch {
    // a bad line among them: found below
  }
  return lines.map((line) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      return undefined;
    }
  });
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
    await writeFileAtomicAsync(file, encode(root, pairs));
  } catch (err) {
    logger.warn(`edit ledger: could not save the manifest cache for ${root}: ${(err as Error).message}`);
  }
}

/** The file's text, a chunk of rows at a time (each written before the next is encoded). */
async function* encode(root: string, pairs: [string, Entry][]): AsyncGenerator<string> {
  yield `${JSON.stringify({ v: VERSION, root })}\n`;
  for (let i = 0; i < pairs.length; i += CHUNK) {
    let chunk = "";
    for (const [rel, e] of pairs.slice(i, i + CHUNK))
      chunk += `${JSON.stringify([rel, e.size, e.mtimeMs, e.ino, e.state])}\n`;
    yield chunk;
  }
}

function addRow(out: ManifestEntries, r: unknown): void {
  if (!Array.isArray(r)) return;
  const state = parseState(r[4]);
  if (!state || typeof r[0] !== "string" || typeof r[1] !== "number" || typeof r[2] !== "number") return;
  out.set(r[0], { size: r[1], mtimeMs: r[2], ino: Number(r[3]), state });
}
