/**
 * The edit ledger's stat walks off the caller's thread (walk-worker-client.ts, #36 item 6): each request names a
 * workspace and the tracker asking (its `client`); the walk runs with synchronous calls here, in the client's
 * `WalkCache` (folder listings, the ignore matcher and the previous walk kept: walk-cache.ts), and the reply is
 * the difference from the walk the client last took in (`since`), or the whole listing when the client has not
 * taken in this worker's previous walk. Bundled on its own as dist/walk-worker.js.
 */
import { availableParallelism } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { POOL_MIN_FILES, serveStats, StatPool, statHelpers, type StatRequest } from "./stat-pool";
import { packDelta } from "./walk";
import { WalkCache } from "./walk-cache";
import type { WalkMessage, WalkReply, WalkWorkerOptions } from "./walk-worker-client";

/** Trackers whose caches are kept (one per workspace of a ledger); the longest unused go first. */
const MAX_CLIENTS = 32;
const clients = new Map<number, { cache: WalkCache; gen: number }>();

function serveWalks(opts: WalkWorkerOptions): void {
  const helpers = statHelpers(opts.statThreads ?? availableParallelism());
  let pool: StatPool | undefined;
  let threads = 1; // that stat'ed the last walk's files
  const statAll = (paths: readonly string[]) => {
    threads = 1;
    if (paths.length < POOL_MIN_FILES && !pool) return undefined; // one thread is as fast
    pool ??= new StatPool(__filename, helpers);
    if (paths.length >= POOL_MIN_FILES) threads = pool.size + 1;
    return pool.statAll(paths);
  };
  parentPort!.on("message", (m: WalkMessage) => {
    if ("forget" in m) {
      clients.delete(m.forget);
      return;
    }
    let reply: WalkReply;
    try {
      const opts = {
        top: m.top,
        prefix: m.prefix,
        ...(m.excludes ? { excludes: m.excludes } : {}),
        ...(m.roots ? { roots: m.roots } : {}),
        ...(helpers > 0 ? { statAll } : {}),
      };
      threads = 1;
      let c = clients.get(m.client);
      clients.delete(m.client); // re-inserted last: the most recently used
      if (!c || !c.cache.fits(m.root, opts)) c = { cache: new WalkCache(m.root, opts), gen: 0 };
      clients.set(m.client, c);
      for (const k of clients.keys()) if (clients.size > MAX_CLIENTS) clients.delete(k);
      const walk = packDelta(
        m.dirsOnly
          ? { full: true, changed: new Map(), removed: [], truncated: false, dirs: c.cache.dirs() }
          : c.cache.walk(m.maxFiles, m.since !== undefined && m.since === c.gen),
      );
      reply = { id: m.id, ok: true, gen: m.dirsOnly ? c.gen : ++c.gen, walk, threads };
      parentPort!.postMessage(reply, [walk.stats.buffer as ArrayBuffer]);
    } catch (err) {
      clients.delete(m.client);
      reply = { id: m.id, ok: false, error: err instanceof Error ? err.message : String(err) };
      parentPort!.postMessage(reply);
    }
  });
}

const data = (workerData ?? {}) as WalkWorkerOptions & { statHelper?: boolean };
if (data.statHelper) parentPort!.on("message", (req: StatRequest) => serveStats(req));
else serveWalks(data);
