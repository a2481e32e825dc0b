/**
 * The Sessions tree's rows of a window's running thread, of an exec run and of a thread's worktree (sessions-tree.ts
 * lists them).
 */
import * as vscode from "vscode";
import type { WorktreeRef } from "../core/model/records";
import type { SupervisorState } from "../core/model/watchdog";
import type { WorktreeState } from "../core/model/worktree";
import type { LiveExec } from "./live-sessions";
import { shortAgent, statusIcon, statusLook } from "./session-item";
import { decorateHandoff, decorateLive, type HandoffSummary } from "./session-ops-look";
import { elapsed } from "./time-format";
import { describeWorktreeState } from "./worktrees/states";

/**
 * What a `live` row shows of a thread this window runs, whichever engine runs it: a window session (sessions-tree.ts)
 * or the window's own thread host (host/own-rows.ts). Its tooltip: sessions-tooltips.ts.
 */
export interface LiveRow {
  title: string;
  status: string;
  /** The agent's display name. */
  agent: string;
  /** Epoch ms the session (the run) started. */
  startedAt: number;
  cwd?: string;
  /** The agent's session id. */
  sessionId?: string;
  /** Why it failed, or what it waits for (the tooltip's last line). */
  detail?: string;
  /** The agent's login state in words (login-view.ts). */
  login?: string;
  /** The watchdog's state: an alert shows on the row (Retry offered). */
  watchdog?: SupervisorState;
  handoff?: HandoffSummary;
}

/** A thread's `live` row (`row` undefined: nothing runs it any more: "closed", named by its id). */
export function liveItem(node: { type: "live"; threadId: string }, row: LiveRow | undefined): vscode.TreeItem {
  const item = new vscode.TreeItem(row?.title ?? node.threadId);
  item.id = `live:${node.threadId}`;
  const status = row?.status ?? "closed";
  const agent = row?.agent ?? "";
  const running = elapsed(Date.now() - (row?.startedAt ?? Date.now()));
  item.description = `${shortAgent(agent)} · ${running}`;
  item.iconPath = statusIcon(status);
  item.accessibilityInformation = { label: `${item.label}, ${statusLook(status).words}, ${agent}, ${running}` };
  // Cancel is offered only while a turn runs (an idle session has nothing to cancel)
  item.contextValue = status === "working" || status === "waiting_permission" ? "live-working" : "live";
  item.command = { command: "acpThreads.openThread", title: "Open", arguments: [node] };
  if (row) decorateHandoff(item, row.handoff);
  if (row) decorateLive(item, row.watchdog);
  return item;
}

/** An exec run's row: its title, how long it has run, its exit code once it failed (its tooltip: on hover). */
export function execItem(node: { type: "exec"; runId: string }, e: LiveExec | undefined): vscode.TreeItem {
  const { runId } = node;
  const item = new vscode.TreeItem(e?.title ?? runId);
  item.id = `exec:${runId}`;
  const running = elapsed(Date.now() - (e?.startedAt ?? Date.now()));
  const code = e?.status === "failed" && e.exitCode != null ? ` · exit ${e.exitCode}` : "";
  item.description = `exec${code} · ${running}`;
  item.iconPath = statusIcon(e?.status ?? "lost");
  item.contextValue = "exec";
  item.command = { command: "acpThreads.openThread", title: "Show terminal", arguments: [node] };
  return item;
}

/** A worktree node: the repository and the worktree's folder name, its state against the base. */
export function worktreeItem(threadId: string, ref: WorktreeRef, state: WorktreeState | undefined): vscode.TreeItem {
  const name = ref.path.split(/[\\/]/).pop() ?? ref.path;
  const repo = ref.repo.split(/[\\/]/).pop() ?? ref.repo;
  const item = new vscode.TreeItem(`${repo} · ${name}`, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `worktree:${threadId}`;
  item.description = describeWorktreeState(state);
  const files = state?.files.slice(0, 20).map((f) => `  ${f.change[0]!.toUpperCase()} ${f.path}`) ?? [];
  item.tooltip = [
    `Worktree ${ref.path}`,
    `of ${ref.repo}, base ${ref.base.slice(0, 10)}`,
    describeWorktreeState(state),
    ...files,
    ...(state && state.files.length > 20 ? [`  … ${state.files.length - 20} more`] : []),
  ].join("\n");
  item.iconPath = new vscode.ThemeIcon(state && !state.exists ? "warning" : "git-branch");
  item.contextValue = "worktree";
  item.accessibilityInformation = { label: `worktree ${repo} ${name}, ${describeWorktreeState(state)}` };
  return item;
}
