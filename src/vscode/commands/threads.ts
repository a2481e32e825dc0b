/**
 * Context-menu actions on sessions-view nodes: Open, Resume, Rename, Export/Import snapshot, Export as Markdown,
 * Delete, Copy id.
 */
import { join } from "node:path";
import * as vscode from "vscode";
import { exportMarkdown, markdownFileName } from "../../core/snapshot/markdown-file";
import { configuredAgents } from "../agents";
import type { Hub } from "../hub";
import { exportThreadSnapshot, importThreadSnapshot } from "../thread-snapshots";
import type { SessionNode } from "../sessions-tree";
import { threadOf } from "./ops";

type Past = Extract<SessionNode, { type: "past" }>;

/** A stored thread as a past node (Resume by id: the read-only panel's Take over, scripts). */
async function pastNode(hub: Hub, threadId: string): Promise<Past | undefined> {
  const loaded = await hub.past.load(threadId);
  if (!loaded) return undefined;
  const { events: _events, ...thread } = loaded;
  return { type: "past", thread };
}

function asPast(node: unknown): Past | undefined {
  return node && typeof node === "object" && (node as SessionNode).type === "past" ? (node as Past) : undefined;
}

export async function openThread(hub: Hub, node?: SessionNode | string, focusEvent?: number): Promise<void> {
  if (typeof node === "string") return void hub.panels.open(node, { focusEvent });
  if (!node) return;
  // A live session and its stored thread share one id: the panel shows the live one while it exists.
  if (node.type === "live") hub.panels.open(node.threadId);
  else if (node.type === "past") hub.panels.open(node.thread.threadId, { focusEvent });
  else if (node.type === "exec") hub.live.exec(node.runId)?.terminal.show();
}

export async function resumeThread(hub: Hub, node?: SessionNode | string): Promise<void> {
  const past = typeof node === "string" ? await pastNode(hub, node) : asPast(node);
  if (!past) return;
  const t = past.thread;
  // another window or process writes it: follow it read-only here and take over once it lets go (#13)
  if (hub.ops.heldElsewhere(t.threadId)) {
    hub.ops.resumeWhenFree(t.threadId);
    void vscode.window.showInformationMessage(
      `"${t.title}" is being written by another window or process; it is open read-only here and this window takes it over when that one lets go.`,
    );
    return;
  }
  const agent = configuredAgents(hub.config, hub.registry).find((a) => a.spec.id === t.agentId);
  if (!agent) throw new Error(`The agent "${t.agent}" of this thread is not configured any more.`);
  const loaded = await hub.past.load(t.threadId);
  const session = hub.spawnSession({
    agent: agent.spec,
    task: "",
    mode: "session",
    cwd: t.cwd,
    resumeThreadId: t.threadId,
    history: loaded?.events,
    ...(t.worktree ? { worktree: t.worktree } : {}),
  });
  // the thread keeps its title (without a task the session would be named after its agent until it starts)
  session.title = t.title;
  hub.panels.retitle(t.threadId, t.title);
}

export async function renameThread(hub: Hub, node?: SessionNode): Promise<void> {
  const past = asPast(node);
  if (!past) return;
  const title = await vscode.window.showInputBox({ prompt: "New title", value: past.thread.title });
  if (!title?.trim()) return;
  hub.threads.rename(past.thread.threadId, title.trim());
  hub.panels.retitle(past.thread.threadId, title.trim());
  hub.tree.refresh();
}

export async function deleteThread(hub: Hub, node?: SessionNode): Promise<void> {
  const past = asPast(node);
  if (!past) return;
  const ok = await vscode.window.showWarningMessage(
    `Delete "${past.thread.title}"? It moves to the trash folder of ACP Threads.`,
    { modal: true },
    "Delete",
  );
  if (ok !== "Delete") return;
  hub.threads.delete(past.thread.threadId);
  hub.tree.refresh();
}

/** `dest` (optional) skips the save dialog. Returns the snapshot's path. */
export async function exportSnapshot(hub: Hub, node?: SessionNode, dest?: vscode.Uri): Promise<string | undefined> {
  const past = asPast(node);
  if (!past) return undefined;
  const path = await exportThreadSnapshot(
    hub.threads,
    past.thread.threadId,
    dest instanceof vscode.Uri ? dest : undefined,
  );
  if (path) void vscode.window.showInformationMessage(`Snapshot saved to ${path}`);
  return path;
}

/**
 * Export as Markdown (Sessions view, the panel's action bar, a thread id): the thread and its images in
 * `<name>.assets/` beside the file. `dest` (optional) skips the save dialog. Returns the file written.
 */
export async function exportMarkdownCommand(
  hub: Hub,
  target?: unknown,
  dest?: vscode.Uri,
): Promise<string | undefined> {
  const threadId = threadOf(target);
  if (!threadId) throw new Error("Choose a thread to export (in the Sessions view, or from its panel).");
  const thread = hub.threads.read(threadId);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? thread.metadata.cwd;
  const uri =
    dest instanceof vscode.Uri
      ? dest
      : await vscode.window.showSaveDialog({
          defaultUri: vscode.Uri.file(join(folder, markdownFileName(thread))),
          filters: { Markdown: ["md"] },
          title: "Export thread as Markdown",
        });
  if (!uri) return undefined;
  const res = exportMarkdown(thread, hub.threads.threadsDir, uri.fsPath);
  if (res.warnings.length) void vscode.window.showWarningMessage(`Exported with warnings: ${res.warnings.join("; ")}`);
  if (!(dest instanceof vscode.Uri))
    void vscode.window.showInformationMessage(`Thread exported to ${uri.fsPath}`, "Open").then((a) => {
      if (a === "Open") void vscode.commands.executeCommand("markdown.showPreview", uri);
    });
  return res.path;
}

/** `src` (optional) skips the pick. Returns the restored thread's id. */
export async function importSnapshot(hub: Hub, src?: vscode.Uri): Promise<string | undefined> {
  const threadId = await importThreadSnapshot(hub.threads, src instanceof vscode.Uri ? src : undefined);
  if (!threadId) return undefined;
  hub.tree.refresh();
  hub.panels.open(threadId);
  return threadId;
}

export async function copySessionId(hub: Hub, node?: SessionNode): Promise<void> {
  const id =
    node?.type === "past"
      ? node.thread.sessionId
      : node?.type === "live"
        ? hub.live.get(node.threadId)?.sessionId
        : undefined;
  if (!id) throw new Error("No agent session id yet.");
  await vscode.env.clipboard.writeText(id);
  void vscode.window.setStatusBarMessage(`Copied session id ${id}`, 3000);
}
