/**
 * The thread host's engine process (host-worker.ts): a child process of the host that serves its long engine
 * requests in an engine worker of its own (core/engine/worker.ts: cancels reach an import while it runs). A process,
 * not a thread of the host: when it ends, all its memory goes back to the system (a worker thread's heap, once
 * ended, stays in the host's RSS: about 50 MB after an import). Messages come and go on the IPC channel
 * (host-process.ts); it ends when the channel closes. Bundled as dist/engine-process-worker.js (a `*.worker.ts`
 * name: scripts/build.mjs bundles it alone), forked, never run as a worker thread.
 * argv: the data home, then the engine worker script (default: dist/engine-worker.js beside this one).
 */
import { join } from "node:path";
import { workerEngine } from "../engine/worker";
import { background } from "../util/unexpected";
import { errorReply } from "../engine/worker-protocol";
import type { EngineProcessCall, EngineProcessReply } from "./host-process";

const [home, script = join(__dirname, "engine-worker.js")] = process.argv.slice(2);
const engine = workerEngine({ script, home: home! });
const running = new Map<number, AbortController>();
const post = (m: EngineProcessReply) => process.send?.(m);

process.on("message", (m: EngineProcessCall) => {
  if (m.t === "cancel") return void running.get(m.id)?.abort();
  const abort = new AbortController();
  running.set(m.id, abort);
  engine
    .call(m.req, {
      signal: abort.signal,
      ...(m.progress ? { onProgress: (progress) => post({ t: "progress", id: m.id, progress }) } : {}),
    })
    .then(
      (reply) => post({ t: "reply", id: m.id, reply }),
      (err: unknown) => post(errorReply(m.id, err)),
    )
    .finally(() => running.delete(m.id));
});
// the host closed the channel (it stops this process when idle, or it left): cancel, close the index, end
process.on("disconnect", () => {
  background(
    engine.close().finally(() => process.exit(0)),
    "closing the engine process",
  );
});
