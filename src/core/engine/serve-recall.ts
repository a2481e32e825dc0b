/**
 * The engine requests of recall (requests-recall.ts), read through the engine's recall reader (core/recall/reader.ts:
 * the warm recall process when one runs, else the index in this process). A `localEngine` given `recall` options
 * keeps one reader for its life (the CLI's one-shot query, the MCP server's session); otherwise (the thread host)
 * each request has its own, closed when it is answered.
 */
import { AcpThreadsError } from "../errors";
import { indexReader, readerFor, type RecallReader } from "../recall/reader";
import { repoRoot } from "../recall/scope";
import type { SearchOptions } from "../recall/search";
import { checkpoint } from "./cancel";
import type { RecallRequest } from "./requests-recall";
import { syncOwn } from "./serve-recall-index";
import type { EngineContext, Handlers } from "./serve-types";

/** The repository a request looks in (undefined: every one). */
function repoOf(req: { cwd?: string; global?: boolean; op: string }): string | undefined {
  if (req.global) return undefined;
  if (req.cwd === undefined)
    throw new AcpThreadsError("usage", `engine request ${req.op}: 'cwd' (whose repository is searched) or 'global'`);
  return repoRoot(req.cwd);
}

function searchOptions(req: Extract<RecallRequest, { op: "recall.search" | "recall.searchText" }>): SearchOptions {
  return {
    repo: repoOf(req),
    global: req.global,
    allTerms: req.allTerms,
    limit: req.limit,
    windowsPerSession: req.windowsPerSession,
    before: req.before,
    after: req.after,
    budgetChars: req.budgetChars,
    messageChars: req.messageChars,
    toolMessageChars: req.toolMessageChars,
  };
}

/**
 * Reads with the engine's reader (its own index in the engine worker), or one of this request's own; with `sync`,
 * after bringing our own threads into the index. Stops at a cancel before each step.
 */
async function reading<T>(
  ctx: EngineContext,
  req: { sync?: boolean },
  signal: AbortSignal | undefined,
  read: (r: RecallReader) => Promise<T>,
): Promise<T> {
  await checkpoint(ctx, signal);
  if (req.sync) {
    syncOwn(ctx, signal);
    await checkpoint(ctx, signal);
  }
  if (ctx.index) return await read(indexReader(ctx.index()));
  if (ctx.recall) return await read(ctx.recall());
  const own = readerFor(ctx.store.home, process.env, { oneShot: false });
  try {
    return await read(own);
  } finally {
    own.close();
  }
}

export const recallOps: Handlers<RecallRequest["op"]> = {
  "recall.search": (ctx, req, _report, signal) =>
    reading(ctx, req, signal, (r) => r.search(req.query, searchOptions(req))),
  "recall.searchText": (ctx, req, _report, signal) =>
    reading(ctx, req, signal, async (r) => ({ text: await r.searchText(req.query, searchOptions(req), req.format) })),
  "recall.recent": (ctx, req, _report, signal) =>
    reading(ctx, req, signal, (r) => r.recent({ repo: repoOf(req), global: req.global, limit: req.limit })),
  "recall.recentText": (ctx, req, _report, signal) =>
    reading(ctx, req, signal, async (r) => ({
      text: await r.recentText({ repo: repoOf(req), global: req.global, limit: req.limit }, req.format),
    })),
  "recall.status": (ctx, req, _report, signal) => reading(ctx, {}, signal, (r) => r.status()),
};
