/**
 * The edit ledger's stat walks off the caller's thread (walk-worker-client.ts, #36 item 6): each request names a
 * workspace, the walk runs with synchronous calls here (a fresh ignore matcher each time, so a changed .gitignore
 * counts at once) and the listing goes back packed. Bundled on its own as dist/walk-worker.js.
 */
import { parentPort } from "node:worker_threads";
import { IgnoreMatcher } from "./gitignore";
import { packWalk, walkWorkspaceSync } from "./walk";
import type { WalkReply, WalkRequest } from "./walk-worker-client";

parentPort!.on("message", (req: WalkRequest) => {
  let reply: WalkReply;
  try {
    const matcher = new IgnoreMatcher(req.top, { extra: req.excludes });
    const toTop = (rel: string) => (req.prefix ? (rel ? `${req.prefix}/${rel}` : req.prefix) : rel);
    const walk = packWalk(walkWorkspaceSync(req.root, matcher, { maxFiles: req.maxFiles, toTop }));
    reply = { id: req.id, ok: true, walk };
    parentPort!.postMessage(reply, [walk.stats.buffer as ArrayBuffer]);
  } catch (err) {
    reply = { id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) };
    parentPort!.postMessage(reply);
  }
});
