/** Context-menu actions on sessions-view nodes: Open, Resume, Rename, Export/Import snapshot, Delete, Copy id. */
import * as vscode from "vscode";
import { configuredAgents } from "../agents";
import type { Hub } from "../hub";
import { exportSnapshot as writeSnapshot, importSnapshot as readSnapshot } from "../thread-snapshots";
import type { SessionNode } from "../sessions-tree";

type Past = Extract<SessionNode, { type: "past" }>;

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

export async function resumeThread(hub: Hub, node?: SessionNode): Promise<void> {
  const past = asPast(node);
  if (!past) return;
  const t = past.thread;
  const agent = configuredAgents(hub.config).find((a) => a.spec.id === t.agentId);
  if (!agent) throw new Error(`The agent "${t.agent}" of this thread is not configured any more.`);
  const loaded = await hub.past.load(t.threadId);
  hub.spawnSession({
    agent: agent.spec,
    task: "",
    mode: "session",
    cwd: t.cwd,
    resumeThreadId: t.threadId,
    history: loaded?.events,
  });
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

export async function exportSnapshot(hub: Hub, node?: SessionNode): Promise<void> {
  const past = asPast(node);
  if (!past) return;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const dest = await vscode.window.showSaveDialog({
    defaultUri: folder ? vscode.Uri.joinPath(folder, `${past.thread.threadId}.jsonl`) : undefined,
    filters: { "ACP thread snapshot": ["jsonl"] },
  });
  if (!dest) return;
  writeSnapshot(hub.threads, past.thread.threadId, dest.fsPath);
  void vscode.window.showInformationMessage(`Exported to ${dest.fsPath}`);
}

export async function importSnapshot(hub: Hub): Promise<void> {
  const [src] =
    (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { "ACP thread snapshot": ["jsonl"] } })) ?? [];
  if (!src) return;
  const threadId = readSnapshot(hub.threads, src.fsPath);
  hub.tree.refresh();
  hub.panels.open(threadId);
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
