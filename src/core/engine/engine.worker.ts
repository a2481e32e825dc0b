/**
 * The engine worker (core/engine/worker.ts): serves engine requests with the engine's own dispatcher off the front
 * end's thread (the window's: its extension host never waits on the disk). It keeps the recall index open until it
 * is closed, reading it itself (no warm process). Cancels come on a port of their own: heard between a request's
 * steps, and fetched by an import's cancel check while it runs (`poll`). Bundled on its own as dist/engine-worker.js
 * (scripts/build.mjs: `*.worker.ts`).
 */
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { localEngine } from "./local";
import { errorReply, type EngineWorkerCall, type EngineWorkerData, type EngineWorkerReply } from "./worker-protocol";

const data = workerData as EngineWorkerData;
const running = new Map<number, AbortController>();
/** Cancels of calls not started yet (a cancel can overtake its call: they come on different ports). */
const early = new Set<number>();

const cancel = (id: number) => {
  const abort = running.get(id);
  if (abort) abort.abort();
  else early.add(id);
};
const poll = () => {
  for (let m = receiveMessageOnPort(data.cancels); m; m = receiveMessageOnPort(data.cancels))
    cancel(m.message as number);
};
data.cancels.on("message", (id: number) => cancel(id));
data.cancels.unref();

const engine = localEngine({ home: data.home, recallIndex: { poll } });
const post = (m: EngineWorkerReply) => parentPort!.postMessage(m);

async function serve(call: Extract<EngineWorkerCall, { t: "call" }>): Promise<void> {
  const { id } = call;
  const abort = new AbortController();
  running.set(id, abort);
  poll();
  if (early.delete(id)) abort.abort();
  try {
    const reply = await engine.call(call.req, {
      signal: abort.signal,
      ...(call.progress ? { onProgress: (progress) => post({ t: "progress", id, progress }) } : {}),
    });
    post({ t: "reply", id, reply });
  } catch (err) {
    post(errorReply(id, err));
  } finally {
    running.delete(id);
  }
}

/** The calls being served; `close` cancels them and waits for their ends before it closes the index. */
const inflight = new Set<Promise<void>>();
let closing = false;

async function close(): Promise<void> {
  closing = true;
  for (const abort of running.values()) abort.abort();
  await Promise.allSettled([...inflight]);
  // close the index (its file descriptors belong to the process, not to this thread) and let the thread end
  engine.close();
  data.cancels.close();
  parentPort!.close();
}

parentPort!.on("message", (m: EngineWorkerCall) => {
  if (m.t === "close") return void close();
  if (closing) return post({ t: "error", id: m.id, message: "the engine worker is closing", code: "interrupted" });
  const served = serve(m).finally(() => inflight.delete(served));
  inflight.add(served);
});
