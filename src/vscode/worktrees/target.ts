/** Which worktree thread a worktree command acts on: a tree node, a thread id, or one the user picks. */
import * as vscode from "vscode";
import type { WorktreeRef } from "../../core/model/records";
import type { Hub } from "../hub";
import type { SessionNode } from "../sessions-tree";

export interface WorktreeTarget {
  threadId: string;
  ref: WorktreeRef;
  title: string;
}

async function refOf(hub: Hub, threadId: string): Promise<WorktreeTarget | undefined> {
  const live = hub.live.get(threadId);
  if (live?.worktree) return { threadId, ref: live.worktree, title: live.title };
  const meta = hub.past.metadata(threadId) ?? (await hub.threads.readAsync(threadId))?.metadata;
  return meta?.worktree ? { threadId, ref: meta.worktree, title: meta.title ?? threadId } : undefined;
}

export async function worktreeTarget(hub: Hub, arg: unknown, placeHolder: string): Promise<WorktreeTarget | undefined> {
  const node = arg as SessionNode | undefined;
  const id =
    typeof arg === "string"
      ? arg
      : node?.type === "worktree" || node?.type === "live"
        ? node.threadId
        : node?.type === "past"
          ? node.thread.threadId
          : undefined;
  if (id) {
    const t = await refOf(hub, id);
    if (!t) throw new Error("This thread has no worktree (only threads started in a new worktree have one).");
    return t;
  }
  const live = hub.live.all().filter((s) => s.worktree);
  const past = (await hub.past.list({ cwds: [] })).filter((t) => t.worktree && !hub.live.get(t.threadId));
  const items = [
    ...live.map((s) => ({ label: s.title, description: s.worktree!.path, threadId: s.threadId })),
    ...past.map((t) => ({ label: t.title, description: t.worktree!.path, threadId: t.threadId })),
  ];
  if (!items.length) {
    void vscode.window.showInformationMessage("No thread works in a worktree (start one “in a new worktree”).");
    return undefined;
  }
  const picked = items.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { placeHolder });
  return picked ? refOf(hub, picked.threadId) : undefined;
}
