/**
 * The engine requests of recall (requests-recall.ts), read through the engine's recall reader (core/recall/reader.ts:
 * the warm recall process when one runs, else the index in this process). A `localEngine` given `recall` options
 * keeps one reader for its life (the CLI's one-shot query, the MCP server's session); otherwise (the thread host)
 * each request has its own, closed when it is answered.
 */
import { AcpThreadsError } from "../errors";
import { readerFor, type RecallReader } from "../recall/reader";
import { repoRoot } from "../recall/scope";
import type { SearchOptions } from "../recall/search";
import type { RecallRequest } from "./requests-recall";
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

/** Reads with the engine's reader, or one of this request's own. */
async function reading<T>(ctx: EngineContext, read: (r: RecallReader) => Promise<T>): Promise<T> {
  if (ctx.recall) return await read(ctx.recall());
  const own = readerFor(ctx.store.home, process.env, { oneShot: false });
  try {
    return await read(own);
  } finally {
    own.close();
  }
}

export const recallOps: Handlers<RecallRequest["op"]> = {
  "recall.search": (ctx, req) => reading(ctx, (r) => r.search(req.query, searchOptions(req))),
  "recall.searchText": (ctx, req) =>
    reading(ctx, async (r) => ({ text: await r.searchText(req.query, searchOptions(req), req.format) })),
  "recall.recent": (ctx, req) =>
    reading(ctx, (r) => r.recent({ repo: repoOf(req), global: req.global, limit: req.limit })),
  "recall.recentText": (ctx, req) =>
    reading(ctx, async (r) => ({
      text: await r.recentText({ repo: repoOf(req), global: req.global, limit: req.limit }, req.format),
    })),
  "recall.status": (ctx) => reading(ctx, (r) => r.status()),
};
