/** The Sessions tree's rows of an exec run and of a thread's worktree (sessions-tree.ts lists them). */
import * as vscode from "vscode";
import type { WorktreeRef } from "../core/model/records";
import type { WorktreeState } from "../core/model/worktree";
import type { LiveExec } from "./live-sessions";
import { statusIcon } from "./session-item";
import { elapsed } from "./time-format";
import { describeWorktreeState } from "./worktrees/states";

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
