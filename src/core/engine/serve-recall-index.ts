/**
 * The engine requests of recall's index (requests-recall-index.ts), and the sync of our own threads a search may
 * ask for first (`sync`). They write the index, so they open it in this process: the engine's own (the engine
 * worker keeps it open), else one of this request's, closed when it is answered. An import and a compaction check
 * for a cancel every few hundred lines (the importer's cancel check), fetching cancels first in a worker.
 */
import { openRecall, type Recall, type SyncSummary } from "../recall/recall";
import type { ImportControl } from "../recall/progress";
import { describeProgress } from "../recall/describe";
import { isCancelled } from "./cancel";
import type { RecallIndexRequest } from "./requests-recall-index";
import type { EngineContext, Handlers, Report } from "./serve-types";

/** Runs `fn` on the engine's index, or on one of its own. */
export function withIndex<T>(ctx: EngineContext, fn: (r: Recall) => T): T {
  if (ctx.index) return fn(ctx.index());
  const own = openRecall(ctx.store.home);
  try {
    return fn(own);
  } finally {
    own.close();
  }
}

const control = (ctx: EngineContext, signal?: AbortSignal, report?: Report): ImportControl => ({
  cancelled: () => isCancelled(ctx, signal),
  ...(report ? { progress: (progress) => report({ t: "import", message: describeProgress(progress), progress }) } : {}),
});

/** Brings our own threads into the index (incremental; skipped while another connection imports). */
export function syncOwn(ctx: EngineContext, signal?: AbortSignal): void {
  withIndex(ctx, (r) => r.syncOwnThreads(control(ctx, signal)));
}

export const recallIndexOps: Handlers<RecallIndexRequest["op"]> = {
  "recall.import": (ctx, req, report, signal) =>
    withIndex(ctx, (r) => {
      const ctl = control(ctx, signal, report);
      const steps: (() => SyncSummary)[] = [];
      if (req.own) steps.push(() => r.syncOwnThreads(ctl));
      if (req.codex) steps.push(() => r.importCodex(req.codex!, ctl));
      if (req.claude) steps.push(() => r.importClaude(req.claude!, ctl));
      const out: SyncSummary[] = [];
      for (const step of steps) {
        if (ctl.cancelled!()) break;
        const sum = step();
        out.push(sum);
        if (sum.cancelled) break;
      }
      return out;
    }),
  "recall.compact": (ctx, req, _report, signal) =>
    withIndex(ctx, (r) => {
      const compacted = r.compactAfter(req.added, control(ctx, signal));
      return compacted ? { compacted } : {};
    }),
};
