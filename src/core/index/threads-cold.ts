/**
 * The Sessions view's first rows when no recent-threads file can give them (#36: a first run or an upgrade, a
 * damaged file, a threads folder changed by a writer that keeps no change journal): the newest thread files by
 * mtime, read on the caller's thread without the index's worker or SQLite (their start is 0.3–1 s). The folder
 * is listed and every file stat'ed asynchronously (bounded parallelism: no synchronous file call, the extension
 * host runs it), the newest are read whole as the catalog reads any thread (catalog-read.ts).
 *
 * Why the rows after `before` are every thread last active after it (so their day and month groups are whole):
 * a thread's last activity is the time of its last record but a rename (metadata.ts), stamped when the record is
 * made, before the write that sets the file's mtime; so last activity ≤ mtime, give or take the mtime's
 * granularity (`MTIME_SLACK_MS`: 2 s on FAT). The files not read have an mtime at or before the oldest read one's
 * (`m`), so their threads were last active at or before `m + MTIME_SLACK_MS` = `before`. That rests on the files'
 * mtimes following their records; what breaks it is checked on what was read: a read thread whose last record is
 * later than its file's mtime (a clock that moved, an mtime set back by hand or by a copy, a server's clock on a
 * network folder) means this folder's mtimes cannot bound the others' activity, and the first paint waits for
 * the index. A file set back by hand among those not read is not seen: its thread shows in its group when the
 * index's rows arrive (a moment later). A thread written while the folder is listed is a change after the
 * listing: the folder watcher marks it and the view lists again, as for any write after a paint.
 */
import { stat as statCb } from "node:fs";
import { readdir } from "node:fs/promises";
import { isThreadId } from "../model/thread-id";
import type { ThreadStore } from "../store/thread-store";
import type { CatalogRow } from "./catalog-load";
import { readCatalogRow } from "./catalog-read";
import { inParallel } from "../util/at-once";

/**
 * At most this many threads are read for the first rows (the latest groups' first pages; 200 cost ~40 ms more
 * under load at 10,000 threads: stop 36's figures)...
 */
export const COLD_ROWS = 100;
/** ... and at most this many bytes of them (a few long threads: the older ones come with the index). */
export const COLD_BYTES = 2 << 20;
/** How much later than its file's mtime a thread's last record may be (whole-second and FAT's 2 s mtimes). */
export const MTIME_SLACK_MS = 2_000;
/** Stats under way at once (each takes a thread of libuv's pool; callbacks: a promise each cost 2x at 10,000). */
const STATS_AT_ONCE = 32;
/** Thread files read at once. */
const READS_AT_ONCE = 8;

export interface ColdCatalog {
  /** The newest threads by their file's mtime, read now. */
  rows: CatalogRow[];
  /** Every thread last active after this is in `rows`; undefined: `rows` are every thread. */
  before: string | undefined;
}

interface FileStat {
  id: string;
  size: number;
  mtime: number;
}

/**
 * Each thread file's size and mtime (a file gone since the listing left out), `STATS_AT_ONCE` at a time; no more
 * are started once `stop` says so (the answer is then not used).
 */
function statAll(store: ThreadStore, ids: string[], stop: () => boolean): Promise<FileStat[]> {
  const out: FileStat[] = [];
  if (!ids.length) return Promise.resolve(out);
  return new Promise((resolve) => {
    let next = 0;
    let running = 0;
    const one = () => {
      const id = stop() ? undefined : ids[next++];
      if (id === undefined) return void (running === 0 && resolve(out));
      running++;
      statCb(store.pathFor(id), (err, st) => {
        running--;
        if (!err && st.isFile()) out.push({ id, size: st.size, mtime: st.mtimeMs });
        one();
      });
    };
    for (let i = 0; i < STATS_AT_ONCE; i++) one();
  });
}

/**
 * The first rows without the index, or undefined when they would settle nothing: the folder's mtimes do not
 * follow its threads' records, or no read thread is surely later than the ones not read. `stop`: the first rows
 * came from elsewhere meanwhile (the index's worker answered first); the walk ends at once, undefined.
 */
export async function coldCatalogRows(
  store: ThreadStore,
  stop: () => boolean = () => false,
): Promise<ColdCatalog | undefined> {
  const names = await readdir(store.threadsDir).catch(() => [] as string[]);
  const ids = names.filter((n) => n.endsWith(".jsonl") && isThreadId(n.slice(0, -6))).map((n) => n.slice(0, -6));
  const files = (await statAll(store, ids, stop)).sort((a, b) => b.mtime - a.mtime);
  if (stop()) return undefined;
  // the newest by mtime, a prefix (the argument above needs every file not taken to be no newer than those taken)
  let take = 0;
  for (let bytes = 0; take < files.length && take < COLD_ROWS; take++) {
    bytes += files[take]!.size;
    if (bytes > COLD_BYTES && take > 0) break;
  }
  const taken = files.slice(0, take);
  const read = await inParallel(taken, READS_AT_ONCE, async (f) =>
    stop() ? undefined : readCatalogRow(store.pathFor(f.id)).catch(() => undefined),
  ); // gone since, or no thread in it (the index has no row for it either)
  if (stop()) return undefined;
  const rows: CatalogRow[] = [];
  taken.forEach((f, i) => {
    const row = read[i];
    if (row) rows.push({ id: f.id, ...row });
  });
  if (rows.some((r) => Date.parse(r.meta.lastActivity) > r.mtime + MTIME_SLACK_MS)) return undefined;
  if (take === files.length) return { rows, before: undefined };
  const before = new Date(Math.ceil(taken.at(-1)!.mtime) + MTIME_SLACK_MS).toISOString();
  return rows.some((r) => r.meta.lastActivity > before) ? { rows, before } : undefined;
}
