/**
 * The Sessions view at history scale (#36): its filter (workspace, agent, who started the threads, status,
 * archived; kept per workspace), "Show more" on a group's page, and archive, unarchive, delete and export on
 * every selected row (the view selects several with Ctrl/Shift). Archived is a `meta_patch` in each thread's own
 * file: the thread leaves the view (the archived filter shows it) and stays in recall.
 */
import { join } from "node:path";
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import { THREAD_STATUSES } from "../../core/model/records";
import type { Hub } from "../hub";
import type { SessionNode, SessionsFilter } from "../sessions-tree";
import { exportThreadSnapshot } from "../thread-snapshots";
import { deleteThread } from "./threads";

type Past = Extract<SessionNode, { type: "past" }>;

const ORIGINS = ["editor", "cli", "automation", "exec", "agent-import"];

/** The past threads among the selection (or the row the command came from). */
function pastOf(hub: Hub, node?: SessionNode, nodes?: readonly SessionNode[]): Past[] {
  const seen = new Set<string>();
  return hub.tree.selection(node, nodes).filter((n): n is Past => {
    if (n.type !== "past" || seen.has(n.thread.threadId)) return false;
    seen.add(n.thread.threadId);
    return true;
  });
}

/** Archives (or brings back) the selected past threads; one that another process holds is named, not changed. */
export async function setArchived(
  hub: Hub,
  archived: boolean,
  node?: SessionNode,
  nodes?: readonly SessionNode[],
): Promise<number> {
  const picked = pastOf(hub, node, nodes);
  const failed: string[] = [];
  for (const p of picked) {
    try {
      // the lock, the open and the close off the window's thread; a close of it under way (a session of it closed a
      // moment ago) ends first
      await hub.threads.patchMetadataAsync(p.thread.threadId, { archived });
    } catch (err) {
      failed.push(`"${p.thread.title}": ${errorMessage(err)}`);
    }
    await new Promise((r) => setImmediate(r)); // one thread at a time: the host's loop turns between them
  }
  hub.tree.refresh();
  if (failed.length)
    void vscode.window.showWarningMessage(
      `ACP Threads: ${failed.length} thread(s) were not ${archived ? "archived" : "unarchived"}: ${failed.join("; ")}`,
    );
  return picked.length - failed.length;
}

/** Delete on a selection of several rows: one confirmation, then each to the trash. */
export async function deleteSelected(hub: Hub, node?: SessionNode, nodes?: readonly SessionNode[]): Promise<void> {
  const picked = pastOf(hub, node, nodes);
  if (picked.length <= 1) return deleteThread(hub, picked[0] ?? node);
  const ok = await vscode.window.showWarningMessage(
    `Delete ${picked.length} threads? They move to the trash folder of ACP Threads.`,
    { modal: true },
    "Delete",
  );
  if (ok !== "Delete") return;
  for (const p of picked) await deleteThread(hub, p, { agentSession: false });
}

/** Export on a selection of several rows: one folder, a snapshot of each thread in it. */
export async function exportSelected(
  hub: Hub,
  node?: SessionNode,
  nodes?: readonly SessionNode[],
  folder?: vscode.Uri,
): Promise<string[]> {
  const picked = pastOf(hub, node, nodes);
  const dir =
    folder ??
    (
      await vscode.window.showOpenDialog({
        canSelectFolders: true,
        canSelectFiles: false,
        title: `Export ${picked.length} session snapshots to`,
      })
    )?.[0];
  if (!dir) return [];
  const out: string[] = [];
  for (const p of picked) {
    const path = await exportThreadSnapshot(
      hub.engine,
      p.thread.threadId,
      vscode.Uri.file(join(dir.fsPath, `${p.thread.threadId}.json`)),
    );
    if (path) out.push(path);
  }
  void vscode.window.showInformationMessage(`${out.length} snapshot(s) saved to ${dir.fsPath}`);
  return out;
}

/** "Show more" on a group of the Sessions view. */
export function showMoreSessions(hub: Hub, node?: SessionNode): void {
  if (node?.type === "more") hub.tree.showMore(node.groupId);
}

interface Pick<T> extends vscode.QuickPickItem {
  value: T;
}

async function pickOne<T>(placeHolder: string, any: string, values: readonly T[], current: T | undefined) {
  const items: Pick<T | undefined>[] = [
    { label: any, value: undefined, picked: current === undefined },
    ...values.map((v) => ({
      label: String(v),
      value: v as T | undefined,
      description: v === current ? "current" : "",
    })),
  ];
  return vscode.window.showQuickPick(items, { placeHolder });
}

/**
 * The Sessions view's filter: which workspaces, agent, who started the threads, status, and archived ones instead
 * of the others. Kept per workspace; the view's description says what it shows.
 */
export async function filterSessions(hub: Hub): Promise<void> {
  const f = hub.tree.filter;
  const folders = (vscode.workspace.workspaceFolders ?? []).map((w) => w.uri.fsPath);
  const scope = await vscode.window.showQuickPick(
    [
      { label: "This workspace", all: false },
      { label: "All workspaces", all: true },
    ],
    { placeHolder: "Which sessions?" },
  );
  if (!scope) return;
  const agents = await hub.past.agents().catch(() => [] as string[]);
  const agent = agents.length ? await pickOne("Which agent?", "Any agent", agents, f.agent) : { value: undefined };
  if (!agent) return;
  const origin = await pickOne("Started by?", "Anyone (editor, CLI, automation, exec, import)", ORIGINS, f.origin);
  if (!origin) return;
  const status = await pickOne("Which status?", "Any status", THREAD_STATUSES, f.status);
  if (!status) return;
  const archived = await vscode.window.showQuickPick(
    [
      { label: "Not archived", archived: false },
      { label: "Archived only", archived: true },
    ],
    { placeHolder: "Archived threads?" },
  );
  if (!archived) return;
  const next: SessionsFilter = {
    cwds: scope.all ? [] : folders,
    ...(agent.value ? { agent: agent.value } : {}),
    ...(origin.value ? { origin: origin.value } : {}),
    ...(status.value ? { status: status.value } : {}),
    ...(archived.archived ? { archived: true } : {}),
  };
  hub.tree.setFilter(next);
}
