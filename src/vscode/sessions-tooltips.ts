/**
 * The Sessions view's row tooltips, built when a row is hovered (`SessionsTree.resolveTreeItem`), never for every
 * row on every refresh: the tree redraws on each status change and tick, and a Markdown tooltip per row was the
 * view's largest cost on the extension host's thread (stop 41's profile: 9.2 s over a host-suite pass).
 */
import type * as vscode from "vscode";
import type { HostedRowNode } from "./host/hosted-row";
import type { LiveExec } from "./live-sessions";
import { sessionTooltip } from "./session-item";
import type { LiveRow } from "./sessions-rows";
import { alertTip, handoffTip, type HandoffSummary } from "./session-ops-look";
import { elapsed } from "./time-format";

/** A past thread's facts the tooltip shows (sessions-tree.ts `PastThreadSummary`). */
interface PastFacts {
  title: string;
  agent: string;
  cwd: string;
  sessionId?: string;
  updatedAt: string;
  mode: "acp" | "exec";
  handoff?: HandoffSummary;
}

export function liveTooltip(row: LiveRow | undefined): vscode.MarkdownString {
  const md = sessionTooltip({
    title: row?.title ?? "",
    status: row?.status ?? "closed",
    agent: row?.agent ?? "",
    cwd: row?.cwd,
    when: `started ${elapsed(Date.now() - (row?.startedAt ?? Date.now()))} ago`,
    sessionId: row?.sessionId,
    extra: row?.detail,
    login: row?.login,
  });
  if (row) handoffTip(md, row.handoff);
  if (row) alertTip(md, row.watchdog);
  return md;
}

export function pastTooltip(t: PastFacts): vscode.MarkdownString {
  return handoffTip(
    sessionTooltip({
      title: t.title,
      status: t.mode === "exec" ? "past_exec" : "past_acp",
      agent: t.agent,
      cwd: t.cwd,
      when: `last active ${new Date(t.updatedAt).toLocaleString()}`,
      sessionId: t.sessionId,
    }),
    t.handoff,
  );
}

/** A thread host's row: where it runs; a run that failed to start says so and why, as a window session's row. */
export function hostedTooltip(node: HostedRowNode): vscode.MarkdownString {
  const t = node.thread;
  const failed = node.status === "failed";
  const md = sessionTooltip({
    title: t?.title ?? node.threadId,
    status: node.status,
    agent: t?.agent ?? "",
    cwd: t?.cwd,
    when: failed ? "failed to start" : "runs in the thread host",
    sessionId: t?.sessionId,
    extra: failed ? node.detail : undefined,
  });
  return alertTip(md, node.watchdog);
}

export function execTooltip(runId: string, e: LiveExec | undefined): vscode.MarkdownString {
  const code = e?.status === "failed" && e.exitCode != null ? ` · exit ${e.exitCode}` : "";
  return sessionTooltip({
    title: e?.title ?? runId,
    status: e?.status ?? "lost",
    agent: "exec run",
    cwd: e?.cwd,
    when: `started ${elapsed(Date.now() - (e?.startedAt ?? Date.now()))} ago`,
    extra: `${e?.commandLine ?? ""}${code ? `\n\nexited with code ${e!.exitCode}` : ""}`,
  });
}
