/**
 * The Sessions view's first rows from the newest thread files (threads-cold.ts), read off the extension host's
 * thread: posts them (undefined: they settle nothing) and ends. Bundled as dist/files-worker.js (scripts/build.mjs:
 * `*.worker.ts`); `ThreadCatalog`'s `filesWorker` (stop 38's A/B).
 */
import { parentPort, workerData } from "node:worker_threads";
import { ThreadStore } from "../store/thread-store";
import { coldCatalogRows } from "./threads-cold";

const post = (m: unknown) => parentPort!.postMessage(m);
coldCatalogRows(new ThreadStore((workerData as { home: string }).home)).then(post, () => post(undefined));
