/**
 * Commands of issue #13: save a bug bundle, take the watchdog's next retry step (hand off to another agent is in
 * src/vscode/handoff/handoff-command.ts).
 */
import { join } from "node:path";
import * as vscode from "vscode";
import type { RetryStep } from "../../core/model/watchdog";
import type { Hub } from "../hub";
import type { LiveSession } from "../live-session";
import type { SessionNode } from "../sessions-tree";

/**
 * The thread a command is about: a tree node or a thread id (a live session and its stored thread share it, and
 * so does a thread the thread host runs).
 */
export function threadOf(target: unknown): string | undefined {
  if (typeof target === "string") return target;
  const node = target as SessionNode | undefined;
  if (node?.type === "past") return node.thread.threadId;
  if (node?.type === "live" || node?.type === "hosted") return node.threadId;
  return undefined;
}

function liveOf(hub: Hub, target: unknown): LiveSession | undefined {
  const id = threadOf(target);
  return id ? hub.live.get(id) : undefined;
}

export async function saveBugBundleCommand(
  hub: Hub,
  target?: unknown,
  opts: { path?: string } = {},
): Promise<string | undefined> {
  const threadId = threadOf(target);
  if (!threadId) throw new Error("Choose a thread to save a bug bundle of (in the Sessions view, or from its panel).");
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? hub.home;
  const uri = opts.path
    ? vscode.Uri.file(opts.path)
    : await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.file(join(folder, (await hub.engine.call({ op: "bundle.name", threadId })).name)),
        filters: { "Bug bundle": ["json"] },
        title: "Save bug bundle",
      });
  if (!uri) return undefined;
  // built and written by the engine, off the window's thread
  const saved = await hub.engine.call({ op: "bundle.save", threadId, outFile: uri.fsPath });
  if (!opts.path)
    void vscode.window
      .showInformationMessage(
        `Bug bundle saved: ${saved.messages} protocol messages, redacted (keys, env values; paths as \${WORKSPACE}). Check it before you share it; 'acp-threads replay' plays it back.`,
        "Open",
      )
      .then((a) => {
        if (a === "Open") void vscode.window.showTextDocument(uri);
      });
  return uri.fsPath;
}

export async function retryCommand(hub: Hub, target?: unknown, step?: RetryStep): Promise<void> {
  const live = liveOf(hub, target) ?? hub.live.all().find((s) => s.supervisor?.state.alert);
  if (live?.supervisor) return await live.supervisor.retry(step);
  // a thread the thread host runs: its watchdog is the host's
  const id = threadOf(target);
  const hosted = id ? hub.hosted.watchdog(id)?.alert && id : hub.hosted.rows().find((r) => r.watchdog?.alert)?.threadId;
  if (!hosted) throw new Error("No live session has a watchdog alert.");
  await hub.hosted.retry(hosted, step);
}
