/**
 * The Sessions view's row tooltips, built when a row is hovered (`SessionsTree.resolveTreeItem`), never for every
 * row on every refresh: the tree redraws on each status change and tick, and a Markdown tooltip per row was the
 * view's largest cost on the extension host's thread (stop 41's profile: 9.2 s over a host-suite pass).
 */
import type * as vscode from "vscode";
import type { HostedRowNode } from "./host/hosted-row";
import type { LiveExec } from "./live-sessions";
import type { LiveSession } from "./live-session";
import { loginText } from "./login-view";
import { sessionTooltip } from "./session-item";
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

export function liveTooltip(
  s: LiveSession | undefined,
  ops?: {
    stateOf(s: LiveSession): Parameters<typeof alertTip>[1];
    handoffOf(s: LiveSession): HandoffSummary | undefined;
  },
): vscode.MarkdownString {
  const md = sessionTooltip({
    title: s?.title ?? "",
    status: s?.status ?? "closed",
    agent: s?.agent.displayName ?? "",
    cwd: s?.cwd,
    when: `started ${elapsed(Date.now() - (s?.startedAt ?? Date.now()))} ago`,
    sessionId: s?.sessionId,
    extra: s?.statusDetail,
    login: s && loginText(s),
  });
  if (s) handoffTip(md, ops?.handoffOf(s));
  if (s) alertTip(md, ops?.stateOf(s));
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

export function hostedTooltip(node: HostedRowNode): vscode.MarkdownString {
  const t = node.thread;
  const md = sessionTooltip({
    title: t?.title ?? node.threadId,
    status: node.status,
    agent: t?.agent ?? "",
    cwd: t?.cwd,
    when: "runs in the thread host",
    sessionId: t?.sessionId,
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
