/** What an import of an agent's sessions came to (core/import/agent-import.ts), and its one-line summary (pure). */

export type ImportAction = "imported" | "updated" | "unchanged" | "failed";

export interface SessionOutcome {
  sessionId: string;
  cwd: string;
  title: string | null;
  updatedAt: string | null;
  action: ImportAction;
  threadId?: string;
  /** Why a session is unchanged or failed. */
  reason?: string;
}

export interface ImportSummary {
  agent: string;
  /** Sessions the agent listed for the folder (or every folder). */
  listed: number;
  imported: number;
  updated: number;
  unchanged: number;
  failed: number;
  /** Nothing was written: the actions are what an import would do. */
  dryRun: boolean;
  /** Stopped by the signal before every session was done (the rest are not in `sessions`). */
  cancelled: boolean;
  sessions: SessionOutcome[];
}

/** "imported 2, updated 0, unchanged 5, failed 0 of 7 sessions" (and what else is true: a dry run, interrupted). */
export function summaryLine(sum: ImportSummary): string {
  const counts = `imported ${sum.imported}, updated ${sum.updated}, unchanged ${sum.unchanged}, failed ${sum.failed}`;
  const of = `of ${sum.listed} session${sum.listed === 1 ? "" : "s"}`;
  return `${sum.dryRun ? "dry run (nothing written): " : ""}${counts} ${of}${sum.cancelled ? " (interrupted)" : ""}`;
}
