/**
 * The thread catalog's first load: every thread's metadata from the threads index, synced with the thread files
 * first. Syncing stats every thread file and the SQLite (wasm) index reads and writes its file with synchronous
 * calls, so the extension host runs it in a worker thread (catalog.worker.ts, bundled as dist/catalog-worker.js)
 * and receives the rows; the CLI and tests without the bundle run it in-process.
 */
import { Worker } from "node:worker_threads";
import type { ThreadMetadata } from "../model/metadata";
import type { ThreadStore } from "../store/thread-store";
import { openThreadIndexAsync, syncThreadIndex } from "./threads-index";

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

export type CatalogWorkerReply = { ok: true; rows: CatalogRow[] } | { ok: false; error: string };

/** Opens the threads index, syncs it with the files and returns its rows (synchronous file calls: off the host). */
export async function loadCatalogRows(store: ThreadStore): Promise<CatalogRow[]> {
  const index = await openThreadIndexAsync(store.layout.threadIndexDb);
  try {
    syncThreadIndex(index, store);
    const rows = index.db.all<{
      id: string;
      size: number;
      mtime: number;
      byte_offset: number;
      head: string;
      state: string;
    }>("SELECT id, size, mtime, byte_offset, head, state FROM threads");
    return rows.map((r) => ({
      id: r.id,
      meta: JSON.parse(r.state) as ThreadMetadata,
      size: Number(r.size),
      mtime: Number(r.mtime),
      offset: Number(r.byte_offset),
      head: r.head,
    }));
  } finally {
    index.close();
  }
}

/** `loadCatalogRows` in a worker thread running `script` (dist/catalog-worker.js); rejects when the worker fails. */
export function loadCatalogRowsInWorker(script: string, home: string): Promise<CatalogRow[]> {
  return new Promise<CatalogRow[]>((resolve, reject) => {
    const worker = new Worker(script, { workerData: { home } satisfies CatalogWorkerData });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    worker.once("message", (m: CatalogWorkerReply) =>
      settle(() => (m.ok ? resolve(m.rows) : reject(new Error(m.error)))),
    );
    worker.once("error", (err) => settle(() => reject(err)));
    worker.once("exit", (code) =>
      settle(() => reject(new Error(`the thread catalog worker stopped (exit code ${code})`))),
    );
  });
}
