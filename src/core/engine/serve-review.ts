/**
 * Inline review's requests (requests-review.ts): served from a `ReviewCache` kept per live ledger (the window's), so
 * a placement while the user types reads nothing once its threads were read; without a live ledger, a cache over a
 * ledger opened for the request (read afresh each time). Keep / Undo / Keep all: serve-review-keep.ts; the panel's
 * changed-files rows: serve-review-turns.ts.
 */
import type { EditLedger } from "../ledger/edit-ledger";
import { ReviewCache, type PlacedHunk } from "../ledger/review-cache";
import type { ReviewPlacement } from "./requests-review";
import { withLedger } from "./serve-ledger-open";
import { reviewKeepOps } from "./serve-review-keep";
import { reviewTurnsOps } from "./serve-review-turns";
import type { EngineContext, Handlers } from "./serve-types";

/** The caches, one per live ledger: it lives as long as the ledger it reads. */
const caches = new WeakMap<EditLedger, ReviewCache>();

function withCache<T>(ctx: EngineContext, fn: (cache: ReviewCache) => Promise<T>): Promise<T> {
  if (!ctx.ledger) return withLedger(ctx, (ledger) => fn(new ReviewCache(ledger)));
  const ledger = ctx.ledger();
  let cache = caches.get(ledger);
  if (!cache) caches.set(ledger, (cache = new ReviewCache(ledger)));
  return fn(cache);
}

const placement = (p: PlacedHunk): ReviewPlacement => ({
  threadId: p.threadId,
  op: p.file.op,
  ...(p.file.turn !== undefined ? { turn: p.file.turn } : {}),
  path: p.file.path,
  hunk: p.hunk.index,
  type: p.type,
  agent: p.agent,
  start: p.start,
  end: p.end,
  removes: p.hunk.beforeEnd > p.hunk.beforeStart,
});

export const reviewOps: Handlers<
  | "review.placed"
  | "review.author"
  | "review.forget"
  | "review.keep"
  | "review.undo"
  | "review.keepAll"
  | "review.turnChanges"
  | "review.pending"
> = {
  "review.placed": (ctx, req) =>
    withCache(ctx, async (cache) => (await cache.placed(req.threads, req.path, req.text)).map(placement)),
  "review.author": (ctx, req) =>
    withCache(ctx, async (cache) => {
      const threadId = await cache.author(req.threads, req.path);
      return threadId ? { threadId } : {};
    }),
  "review.forget": (ctx, req) => {
    if (ctx.ledger) caches.get(ctx.ledger())?.drop(req.threadId);
    return {};
  },
  "review.pending": (ctx, req) => withCache(ctx, async (cache) => ({ pending: await cache.pending(req.threadId) })),
  ...reviewKeepOps,
  ...reviewTurnsOps,
};
