/**
 * The thread catalog's first load, off the extension host's thread (catalog-load.ts): syncs the threads index,
 * posts its rows and ends. Bundled on its own as dist/catalog-worker.js (scripts/build.mjs: `*.worker.ts`).
 */
import { parentPort, workerData } from "node:worker_threads";
import { ThreadStore } from "../store/thread-store";
import { loadCatalogRows, type CatalogWorkerData, type CatalogWorkerReply } from "./catalog-load";

const data = workerData as CatalogWorkerData;
const post = (m: CatalogWorkerReply) => parentPort!.postMessage(m);

loadCatalogRows(new ThreadStore(data.home)).then(
  (rows) => post({ ok: true, rows }),
  (err: unknown) => post({ ok: false, error: err instanceof Error ? err.message : String(err) }),
);
