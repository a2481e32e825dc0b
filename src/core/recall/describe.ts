/**
 * Recall's import progress and summaries in plain words (the window's import notification and its closing
 * message; the engine's `import` progress carries the first as its message). Pure: a front end shares it.
 */
import type { ImportProgress } from "./progress";
import type { SyncSummary } from "./import-run";

const SOURCE_NAMES: Record<string, string> = {
  acp_threads: "ACP Threads",
  codex_rollout: "Codex",
  claude_code_jsonl: "Claude Code",
};

export function describeProgress(p: ImportProgress): string {
  const pct = p.bytes > 0 ? Math.floor((100 * p.bytesDone) / p.bytes) : 100;
  return `${SOURCE_NAMES[p.source] ?? p.source}: ${pct}% · ${p.filesDone.toLocaleString("en")} of ${p.files.toLocaleString("en")} files · ${p.messages.toLocaleString("en")} messages`;
}

export function describeSummaries(sums: SyncSummary[]): string {
  return sums
    .map(
      (s) =>
        `${SOURCE_NAMES[s.source] ?? s.source}: ${s.files} files, ${s.messages} messages` +
        (s.unreadable ? `, ${s.unreadable} not read (${(s.notes ?? []).join("; ")})` : ""),
    )
    .join("; ");
}
