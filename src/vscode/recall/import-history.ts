/**
 * The extension's recall runs in the engine worker (core/engine/worker.ts, vscode/recall-index.ts): the extension
 * host never touches the index, so neither an import nor a search waiting for an import batch can block it.
 * Importing Codex and Claude Code history shows real progress (bytes read per source, files, messages) and cancels
 * at any point.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { describeProgress } from "../../core/recall/describe";
import { pathExists } from "../../core/util/path-exists";
import type { Hub } from "../hub";
import type { ImportJob, ImportPlan, ImportProgress, SyncSummary } from "../../core/engine/import-job";

/** Where Codex and Claude Code keep transcripts, honouring their own home overrides. */
export const historyRoots = () => ({
  codex: join(process.env.CODEX_HOME || join(homedir(), ".codex"), "sessions"),
  claude: join(process.env.CLAUDE_CONFIG_DIR?.split(",")[0]?.trim() || join(homedir(), ".claude"), "projects"),
});

/** Our threads, plus the Codex and Claude Code roots that exist. */
export async function defaultPlan(): Promise<ImportPlan> {
  const roots = historyRoots();
  const [codex, claude] = await Promise.all([pathExists(roots.codex), pathExists(roots.claude)]);
  return {
    own: true,
    codex: codex ? { root: roots.codex } : undefined,
    claude: claude ? { root: roots.claude } : undefined,
  };
}

/**
 * Runs `plan` in an import worker under a cancellable progress notification. The bar moves with the bytes
 * read, each source taking an equal share of it. Resolves with the summaries (the last one says when cancelled).
 */
export function importWithProgress(
  hub: Hub,
  plan: ImportPlan,
  onProgress?: (p: ImportProgress) => void,
): { job: ImportJob; shown: Thenable<SyncSummary[]> } {
  const sources = [plan.own, plan.codex, plan.claude].filter(Boolean).length || 1;
  let report: ((p: ImportProgress) => void) | undefined;
  const job = hub.recall.imports.import(plan, (p) => {
    onProgress?.(p);
    report?.(p);
  });
  const shown = vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: "ACP Threads: importing history", cancellable: true },
    async (progress, token) => {
      const sub = token.onCancellationRequested(() => job.cancel());
      const order: string[] = [];
      let shownPct = 0;
      report = (p) => {
        if (!order.includes(p.source)) order.push(p.source);
        const within = p.bytes > 0 ? p.bytesDone / p.bytes : 1;
        const pct = (100 * (order.length - 1 + within)) / sources;
        progress.report({ message: describeProgress(p), increment: Math.max(0, pct - shownPct) });
        shownPct = Math.max(shownPct, pct);
      };
      try {
        return await job.done;
      } finally {
        sub.dispose();
      }
    },
  );
  return { job, shown };
}
