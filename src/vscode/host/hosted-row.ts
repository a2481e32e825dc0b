/**
 * The Sessions view's live row of a thread the thread host runs (#35): its title and agent when the thread is
 * listed, "waiting for input" while a permission question waits for an answer, "failed to start" for a run that
 * never started (failed-starts.ts), else "in the thread host".
 */
import * as vscode from "vscode";
import type { HostWatchdog } from "../../core/host/protocol";
import { shortAgent, statusIcon, statusLook } from "../session-item";
import { decorateLive } from "../session-ops-look";
import type { HostedRow, OwnRun } from "./hosted-threads";

/** Where the tree reads the host's threads (hosted-threads.ts). */
export interface HostedRowSource {
  rows(): HostedRow[];
  onDidChange: vscode.Event<void>;
  /** A run of the window's own host, which the tree draws as a `live` row (own-rows.ts). */
  ownRun(threadId: string): OwnRun | undefined;
}

/** What a hosted row shows (the tree's "hosted" node). */
export interface HostedRowNode {
  threadId: string;
  status: string;
  thread?: { title: string; agent: string; cwd: string; sessionId?: string };
  watchdog?: HostWatchdog;
  /** Why it failed to start (status `failed`). */
  detail?: string;
}

export function hostedItem(node: HostedRowNode): vscode.TreeItem {
  const t = node.thread;
  const item = new vscode.TreeItem(t?.title || `thread ${node.threadId}`);
  item.id = `hosted:${node.threadId}`;
  const where =
    node.status === "waiting_permission"
      ? "waiting for input"
      : node.status === "failed"
        ? "failed to start"
        : "in the thread host";
  item.description = t ? `${shortAgent(t.agent)} · ${where}` : where;
  item.iconPath = statusIcon(node.status);
  item.accessibilityInformation = { label: `${String(item.label)}, ${statusLook(node.status).words}, ${where}` };
  // Cancel is offered while a turn runs (as a live row's); Stop ends the host's run (`stop_thread`)
  item.contextValue = node.status === "working" || node.status === "waiting_permission" ? "hosted-working" : "hosted";
  item.command = { command: "acpThreads.openThread", title: "Open", arguments: [node.threadId] };
  // the watchdog's alert as on a window session's row, with Retry and Cancel (not its Stop: the host holds it); the
  // tooltip is built on hover (sessions-tooltips.ts)
  decorateLive(item, node.watchdog, "hosted-alert");
  return item;
}
