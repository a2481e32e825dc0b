/**
 * The thread catalog's first load: every thread's metadata from the threads index, synced with the thread files
 * first. Syncing stats every thread file and the SQLite (wasm) index reads and writes its file with synchronous
 * calls, so the extension host runs it in a worker thread (catalog.worker.ts, bundled as dist/catalog-worker.js)
 * and receives the rows; the CLI and tests without the bundle run it in-process.
 */
import { Worker } from "node:worker_threads";
import type { ThreadMetadata } from "../model/metadata";
import type { ThreadStore } from "../store/thread-store";
import { openThreadIndexAsync, syncThreadIndex, type ThreadIndex } from "./threads-index";

/** One thread as the index last read it: its metadata and where the read stopped. */
export interface CatalogRow {
  id: string;
  meta: ThreadMetadata;
  size: number;
  mtime: number;
  /** Offset just after the last complete line read. */
  offset: number;
  head: string;
}

export interface CatalogWorkerData {
  home: string;
}

export type CatalogWorkerReply =
  | { ok: true; part: "first"; rows: CatalogRow[] }
  | { ok: true; part: "rest"; rows: CatalogRow[] }
  | { ok: false; error: string };

/** Rows the first part holds: the first pages of the latest day groups (sessions-groups.ts pages 100 a group). */
export const FIRST_ROWS = 300;

type StoredRow = { id: string; size: number; mtime: number; byte_offset: number; head: string; state: string };

const toRow = (r: StoredRow): CatalogRow => ({
  id: r.id,
  meta: JSON.parse(r.state) as ThreadMetadata,
  size: Number(r.size),
  mtime: Number(r.mtime),
  offset: Number(r.byte_offset),
  head: r.head,
});

/**
 * Opens the threads index, syncs it with the files and returns its rows (synchronous file calls: off the host).
 * The newest `FIRST_ROWS` go to `first` as soon as they are read (#36: materialising every row's fold state is
 * most of a first load at 10,000 threads), the others are returned after; `last` runs on the index before it
 * closes.
 */
export async function loadCatalogRows(
  store: ThreadStore,
  first?: (rows: CatalogRow[]) => void,
  last?: (index: ThreadIndex) => void,
): Promise<CatalogRow[]> {
  const index = await openThreadIndexAsync(store.layout.threadIndexDb);
  try {
    syncThreadIndex(index, store);
    const rows = (sql: string) =>
      index.db.all<StoredRow>(`SELECT id, size, mtime, byte_offset, head, state FROM threads ${sql}`).map(toRow);
    if (!first) return rows("");
    // under one lock: the two parts agree even when another process syncs in between; the newest by the
    // threads_recent index (no sort of the whole table)
    const rest = index.db.read(() => {
      const newest = rows(`ORDER BY last_activity DESC LIMIT ${FIRST_ROWS}`);
      first(newest);
      const sent = new Set(newest.map((r) => r.id));
      return rows("").filter((r) => !sent.has(r.id));
    });
    last?.(index);
    return rest;
  } finally {
    index.close();
  }
}

/**
 * `loadCatalogRows` in a worker thread running `script` (dist/catalog-worker.js): `first` gets the newest rows as
 * soon as the worker posts them; resolves with the rest, rejects when the worker fails.
 */
export function loadCatalogRowsInWorker(
  script: string,
  home: string,
  first: (rows: CatalogRow[]) => void,
): Promise<CatalogRow[]> {
  return new Promise<CatalogRow[]>((resolve, reject) => {
    const worker = new Worker(script, { workerData: { home } satisfies CatalogWorkerData });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    worker.on("message", (m: CatalogWorkerReply) => {
      if (m.ok && m.part === "first") first(m.rows);
      else settle(() => (m.ok ? resolve(m.rows) : reject(new Error(m.error))));
    });
    worker.once("error", (err) => settle(() => reject(err)));
    worker.once("exit", (code) =>
      settle(() => reject(new Error(`the thread catalog worker stopped (exit code ${code})`))),
    );
  });
}
