/**
 * Where the engine worker's first query goes (recall-panel bench): one fresh worker per round, timed in phases.
 * - thread start: `new Worker` until the worker's first line runs (Node's own bootstrap of a thread);
 * - script load: `require` of the bundle (dist/engine-worker.js: V8 compiling the script, evaluating its modules);
 * - index open: the first request (`recall.status`: node-sqlite3-wasm's load and WASM compile, the index opened);
 * - first search: the panel's query (`recall.search` with `sync: true`: our threads synced, the search run cold).
 * The worker is the real one: a wrapper thread stamps the time, then requires the bundle, which serves the calls.
 */
import { MessageChannel, Worker } from "node:worker_threads";
import type { EngineRequest } from "../src/core/engine/requests";
import type { EngineWorkerCall, EngineWorkerData, EngineWorkerReply } from "../src/core/engine/worker-protocol";

export const PHASES = ["thread start", "script load", "index open", "first search"] as const;
export type Phases = Record<(typeof PHASES)[number], number>;

/** The wrapper thread's code: stamps (absolute times: comparable across threads), requires the bundle, stamps. */
const wrapper = (script: string) => `
const { parentPort } = require("node:worker_threads");
const started = performance.timeOrigin + performance.now();
require(${JSON.stringify(script)});
parentPort.postMessage({ t: "loaded", started, loaded: performance.timeOrigin + performance.now() });`;

/** One fresh engine worker on `home`: its phases, in ms. */
export async function workerPhases(script: string, home: string, search: EngineRequest): Promise<Phases> {
  const { port1, port2 } = new MessageChannel();
  const workerData: EngineWorkerData = { home, cancels: port2 };
  const t0 = performance.timeOrigin + performance.now();
  const worker = new Worker(wrapper(script), { eval: true, workerData, transferList: [port2] });
  try {
    const next = () =>
      new Promise<{ t: string; started?: number; loaded?: number; message?: string }>((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
      });
    const loaded = await next();
    const call = async (id: number, req: EngineRequest) => {
      const t = performance.now();
      worker.postMessage({ t: "call", id, req, progress: false } satisfies EngineWorkerCall);
      const reply = (await next()) as EngineWorkerReply;
      if (reply.t === "error") throw new Error(`${req.op}: ${reply.message}`);
      return performance.now() - t;
    };
    return {
      "thread start": loaded.started! - t0,
      "script load": loaded.loaded! - loaded.started!,
      "index open": await call(1, { op: "recall.status" }),
      "first search": await call(2, search),
    };
  } finally {
    port1.close();
    await worker.terminate();
  }
}
