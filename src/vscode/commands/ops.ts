/**
 * Commands of issue #13: hand a thread off to another agent (the brief opens for editing first), save a bug
 * bundle, show the Usage view, take the watchdog's next retry step.
 */
import { join } from "node:path";
import * as vscode from "vscode";
import { buildBugBundle, bundleFileName, writeBugBundle } from "../../core/bundle/bundle";
import { buildHandoffBrief, renderHandoffBrief } from "../../core/handoff/brief";
import { linkHandoff } from "../../core/handoff/link";
import { VERSION } from "../../core/version";
import type { RetryStep } from "../../core/watchdog/retry-ladder";
import { configuredAgents } from "../agents";
import type { Hub } from "../hub";
import type { LiveSession } from "../live-session";
import type { SessionNode } from "../sessions-tree";

/** The thread a command is about: a tree node or a thread id (a live session and its stored thread share it). */
export function threadOf(target: unknown): string | undefined {
  if (typeof target === "string") return target;
  const node = target as SessionNode | undefined;
  if (node?.type === "past") return node.thread.threadId;
  if (node?.type === "live") return node.threadId;
  return undefined;
}

function liveOf(hub: Hub, target: unknown): LiveSession | undefined {
  const id = threadOf(target);
  return id ? hub.live.get(id) : undefined;
}

/** Resolves once the live session's thread is stored (its id), or undefined when it failed to start. */
function storedThread(s: LiveSession): Promise<string | undefined> {
  const stored = () => (s.thread ? s.threadId : undefined);
  if (s.thread || !s.isOpen) return Promise.resolve(stored());
  return new Promise((resolve) => {
    const sub = s.onStatus(() => {
      if (!s.thread && s.isOpen && s.status === "starting") return;
      sub.dispose();
      resolve(stored());
    });
  });
}

export interface HandoffOptions {
  /** Skip the pickers (tests, scripts): the agent id, and the brief to send as is. */
  agentId?: string;
  brief?: string;
}

export async function handoffCommand(
  hub: Hub,
  target?: unknown,
  opts: HandoffOptions = {},
): Promise<LiveSession | undefined> {
  const fromId = threadOf(target);
  if (!fromId) throw new Error("Choose a thread to hand off (in the Sessions view, or from its panel).");
  const { metadata, records } = hub.threads.read(fromId);
  const agents = configuredAgents(hub.config, hub.registry);
  let agent = agents.find((a) => a.spec.id === opts.agentId)?.spec;
  if (!agent) {
    if (opts.agentId) throw new Error(`No agent "${opts.agentId}" is configured.`);
    const pick = await vscode.window.showQuickPick(
      agents.map((a) => ({
        label: a.spec.displayName,
        description: a.spec.id === metadata.agent.id ? "the agent of this thread" : a.spec.id,
        spec: a.spec,
      })),
      { title: `Hand off "${metadata.title ?? "thread"}" to…`, placeHolder: "The agent that takes over" },
    );
    if (!pick) return undefined;
    agent = pick.spec;
  }
  let brief = opts.brief ?? renderHandoffBrief(buildHandoffBrief(metadata, records));
  if (opts.brief === undefined) {
    const doc = await vscode.workspace.openTextDocument({ language: "markdown", content: brief });
    await vscode.window.showTextDocument(doc, { preview: false });
    const send = await vscode.window.showInformationMessage(
      `Edit the handoff brief for ${agent.displayName} in the editor, then send it.`,
      "Send",
      "Cancel",
    );
    brief = doc.getText();
    if (vscode.window.activeTextEditor?.document === doc)
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    if (send !== "Send" || !brief.trim()) return undefined;
  }
  const session = hub.spawnSession({
    agent,
    task: brief,
    mode: "session",
    cwd: metadata.cwd,
    origin: { kind: "handoff", source: fromId },
  });
  const toId = await storedThread(session);
  if (!toId) return session;
  // this window's writer of the old thread, if it is still open here (a closed one cannot patch any more)
  const origin = hub.live.get(fromId);
  const holder = origin?.isOpen ? origin.thread?.live : undefined;
  const failed = linkHandoff(hub.threads, fromId, toId, holder ? (p) => holder.patch(p) : undefined);
  if (failed) hub.log.logger.warn(`handoff: ${fromId} could not list ${toId} yet: ${failed}`);
  hub.ops.refresh(fromId);
  hub.ops.refresh(toId);
  hub.tree.refresh();
  return session;
}

export async function saveBugBundleCommand(
  hub: Hub,
  target?: unknown,
  opts: { path?: string } = {},
): Promise<string | undefined> {
  const threadId = threadOf(target);
  if (!threadId) throw new Error("Choose a thread to save a bug bundle of (in the Sessions view, or from its panel).");
  const bundle = buildBugBundle(hub.threads, threadId, { acpThreadsVersion: VERSION });
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? hub.home;
  const uri = opts.path
    ? vscode.Uri.file(opts.path)
    : await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.file(join(folder, bundleFileName(bundle))),
        filters: { "Bug bundle": ["json"] },
        title: "Save bug bundle",
      });
  if (!uri) return undefined;
  writeBugBundle(bundle, uri.fsPath);
  if (!opts.path)
    void vscode.window
      .showInformationMessage(
        `Bug bundle saved: ${bundle.traffic.length} protocol messages, redacted (keys, env values; paths as \${WORKSPACE}). Check it before you share it; 'acp-threads replay' plays it back.`,
        "Open",
      )
      .then((a) => {
        if (a === "Open") void vscode.window.showTextDocument(uri);
      });
  return uri.fsPath;
}

export async function retryCommand(hub: Hub, target?: unknown, step?: RetryStep): Promise<void> {
  const live = liveOf(hub, target) ?? hub.live.all().find((s) => s.supervisor?.state.alert);
  if (!live?.supervisor) throw new Error("No live session has a watchdog alert.");
  await live.supervisor.retry(step);
}
