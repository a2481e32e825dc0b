/**
 * The thread catalog's first load, off the extension host's thread (catalog-load.ts): syncs the threads index,
 * posts its newest rows, then the others, and ends. Bundled on its own as dist/catalog-worker.js (scripts/build.mjs: `*.worker.ts`).
 */
import { parentPort, workerData } from "node:worker_threads";
import { ThreadStore } from "../store/thread-store";
import { loadCatalogRows, type CatalogWorkerData, type CatalogWorkerReply } from "./catalog-load";
import type { ThreadIndex } from "./threads-index";
import { writeRecent } from "./threads-recent";

const data = workerData as CatalogWorkerData;
const post = (m: CatalogWorkerReply) => parentPort!.postMessage(m);

const store = new ThreadStore(data.home);
const writeRecentQuietly = (index: ThreadIndex) => {
  try {
    writeRecent(index, store); // the next window's first paint without SQLite (#36)
  } catch {
    // only a cache: the next load writes it again
  }
};

loadCatalogRows(store, (rows) => post({ ok: true, part: "first", rows }), writeRecentQuietly).then(
  (rows) => post({ ok: true, part: "rest", rows }),
  (err: unknown) => post({ ok: false, error: err instanceof Error ? err.message : String(err) }),
);
