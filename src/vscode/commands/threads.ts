/**
 * Context-menu actions on sessions-view nodes: Open, Resume, Rename, Export/Import snapshot, Export as Markdown,
 * Delete, Copy id.
 */
import { join, resolve } from "node:path";
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import { configuredAgent } from "../agents";
import { nodeChoice } from "../node-runtime";
import type { Hub } from "../hub";
import type { LiveSession } from "../live-session";
import { defaultExportDir } from "../export-folder";
import { exportThreadSnapshot, importThreadSnapshot } from "../thread-snapshots";
import type { SessionNode } from "../sessions-tree";
import { resumeInHost } from "../host/host-entry";
import { writeTitle } from "../host/hosted-rename";
import { ownRunOf, renamedInView } from "../host/own-rows";
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
  if (node.type === "live" || node.type === "hosted") hub.panels.open(node.threadId);
  else if (node.type === "past") hub.panels.open(node.thread.threadId, { focusEvent });
  else if (node.type === "exec") hub.live.exec(node.runId)?.terminal.show();
}

/**
 * Resumes a stored thread; `task`, when given, is its next prompt (sent once the session is open). A thread that
 * belongs in the thread host, or that it holds, goes there (host-entry.ts: its panel follows the host, the task is
 * the host's next prompt). Returns the session, or undefined when none started here (no such thread, the host
 * took it, or another window writes it: followed).
 */
export async function resumeThread(
  hub: Hub,
  node?: SessionNode | string,
  task?: string,
): Promise<LiveSession | undefined> {
  const past = typeof node === "string" ? await pastNode(hub, node) : asPast(node);
  if (!past) return undefined;
  const id = past.thread.threadId;
  // another window's thread is followed until it lets go (below); then Take over resumes it through here again
  const inHost = hub.hosted.holds(id) || !(await hub.ops.heldElsewhere(id));
  if (inHost && (await resumeInHost(hub, id, typeof task === "string" ? task : undefined))) return undefined;
  return resumeHere(hub, past, task);
}

/** Resumes a stored thread in this window (the prompt box, once it decided the host does not take its prompt). */
export async function resumeInWindow(hub: Hub, threadId: string): Promise<LiveSession | undefined> {
  const past = await pastNode(hub, threadId);
  return past && resumeHere(hub, past);
}

async function resumeHere(hub: Hub, past: Past, task?: string): Promise<LiveSession | undefined> {
  const t = past.thread;
  // another window or process writes it: follow it read-only here and take over once it lets go (#13)
  if (await hub.ops.heldElsewhere(t.threadId)) {
    hub.ops.resumeWhenFree(t.threadId);
    void vscode.window.showInformationMessage(
      `"${t.title}" is being written by another window or process; it is open read-only here and this window takes it over when that one lets go.`,
    );
    return undefined;
  }
  const agent = await configuredAgent(hub.config, hub.registry, t.agentId);
  if (!agent) throw new Error(`The agent "${t.agent}" of this thread is not configured any more.`);
  const loaded = await hub.past.load(t.threadId);
  const session = hub.spawnSession({
    agent: agent.spec,
    task: typeof task === "string" ? task : "",
    mode: "session",
    cwd: t.cwd,
    resumeThreadId: t.threadId,
    history: loaded?.events,
    ...(t.worktree ? { worktree: t.worktree } : {}),
  });
  // the thread keeps its title (without a task the session would be named after its agent until it starts)
  session.title = t.title;
  hub.panels.retitle(t.threadId, t.title);
  return session;
}

/**
 * Renames a past, a live or a hosted thread (a live session and its stored thread share the id; the thread host
 * writes one it holds, also a live row's that the window's own host runs); `to` skips the box.
 */
export async function renameThread(hub: Hub, node?: SessionNode, to?: string): Promise<void> {
  const own = node?.type === "live" ? ownRunOf(hub, node.threadId) : undefined;
  const live = node?.type === "live" && !own ? hub.live.get(node.threadId) : undefined;
  const past = asPast(node);
  const hosted = node?.type === "hosted" ? node : undefined;
  const threadId = live?.threadId ?? past?.thread.threadId ?? hosted?.threadId ?? own?.row.threadId;
  if (!threadId) return;
  const title = (
    typeof to === "string"
      ? to
      : await vscode.window.showInputBox({
          prompt: "New title",
          value: live?.title ?? past?.thread.title ?? hosted?.thread?.title ?? hub.tree.liveRow(threadId)?.title,
        })
  )?.trim();
  if (!title) return;
  // the thread host's, when it holds the thread; nothing shown before (a live row of the own host: its view has it)
  const write = () => writeTitle(hub, threadId, title);
  await (own?.view ? renamedInView(own.view, write) : write());
  if (live) live.title = title;
  hub.panels.retitle(threadId, title);
  hub.tree.refresh();
}

const WITH_SESSION = "Delete with the agent's session";

/**
 * Moves a stored thread to the trash; with its agent's session too when the setting says so or the user picks it
 * (`opts` skips the dialog: tests, scripts). The local delete happens whatever the agent answers.
 */
export async function deleteThread(hub: Hub, node?: SessionNode, opts?: { agentSession?: boolean }): Promise<void> {
  const past = asPast(node);
  if (!past) return;
  const setting = hub.config.deleteAgentSession;
  const offer = !!past.thread.sessionId && setting === "ask";
  const ok =
    opts !== undefined
      ? opts.agentSession
        ? WITH_SESSION
        : "Delete"
      : await vscode.window.showWarningMessage(
          `Delete "${past.thread.title}"? It moves to the trash folder of ACP Threads.`,
          { modal: true },
          "Delete",
          ...(offer ? [WITH_SESSION] : []),
        );
  if (ok !== "Delete" && ok !== WITH_SESSION) return;
  const agentSession = !!past.thread.sessionId && (ok === WITH_SESSION || (opts === undefined && setting === "always"));
  const failed = agentSession ? await deleteAgentSessionOf(hub, past) : undefined;
  // off the window's thread; a session of it closed a moment ago: its close ends first (else the delete is refused)
  await hub.engine.call({ op: "threads.delete", threadId: past.thread.threadId });
  hub.tree.refresh();
  if (failed)
    void vscode.window.showWarningMessage(
      `ACP Threads: "${past.thread.title}" was moved to the trash, but the agent's session was not deleted: ${failed}`,
    );
}

/** `session/delete` through a one-shot start of the thread's agent; the error message, if it failed. */
async function deleteAgentSessionOf(hub: Hub, past: Past): Promise<string | undefined> {
  const t = past.thread;
  const agent = await configuredAgent(hub.config, hub.registry, t.agentId);
  if (!agent) return `the agent "${t.agent}" is not configured any more`;
  try {
    // its command as a session would start it (a path, or a name on PATH with the agent's env over ours)
    const { program: command } = await hub.engine.call({ op: "agents.which", spec: agent.spec, cwd: resolve(t.cwd) });
    if (!command) return `${agent.spec.displayName}: "${agent.spec.command}" was not found`;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `ACP Threads: deleting the agent's session…` },
      () =>
        hub.engine.call({
          op: "agents.deleteSession",
          spec: { ...agent.spec, command },
          sessionId: t.sessionId!,
          cwd: t.cwd,
          ...nodeChoice(hub.config),
        }),
    );
    return undefined;
  } catch (err) {
    return errorMessage(err);
  }
}

/** `dest` (optional) skips the save dialog. Returns the snapshot's path. */
export async function exportSnapshot(hub: Hub, node?: SessionNode, dest?: vscode.Uri): Promise<string | undefined> {
  const past = asPast(node);
  if (!past) return undefined;
  const path = await exportThreadSnapshot(
    hub.engine,
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
  const { markdown: name } = await hub.engine.call({ op: "export.names", threadId });
  const folder = await defaultExportDir(hub.engine); // never the repository's root (#37)
  const uri =
    dest instanceof vscode.Uri
      ? dest
      : await vscode.window.showSaveDialog({
          defaultUri: vscode.Uri.file(join(folder, name)),
          filters: { Markdown: ["md"] },
          title: "Export thread as Markdown",
        });
  if (!uri) return undefined;
  const res = await hub.engine.call({ op: "markdown.export", threadId, outFile: uri.fsPath });
  if (res.warnings.length) void vscode.window.showWarningMessage(`Exported with warnings: ${res.warnings.join("; ")}`);
  if (!(dest instanceof vscode.Uri))
    void vscode.window.showInformationMessage(`Thread exported to ${uri.fsPath}`, "Open").then((a) => {
      if (a === "Open") void vscode.commands.executeCommand("markdown.showPreview", uri);
    });
  return res.path;
}

/** `src` (optional) skips the pick. Returns the restored thread's id. */
export async function importSnapshot(hub: Hub, src?: vscode.Uri): Promise<string | undefined> {
  const threadId = await importThreadSnapshot(hub.engine, hub.threads, src instanceof vscode.Uri ? src : undefined);
  if (!threadId) return undefined;
  hub.tree.refresh();
  hub.panels.open(threadId);
  return threadId;
}

/**
 * The agent's session id of a Sessions view row; a hosted row's (and a live row's that the window's own host runs) as
 * its thread file has it now (the host's agent).
 */
async function sessionIdOf(hub: Hub, node?: SessionNode): Promise<string | undefined> {
  if (node?.type === "past") return node.thread.sessionId;
  if (node?.type === "live" && !ownRunOf(hub, node.threadId)) return hub.live.get(node.threadId)?.sessionId;
  if (node?.type === "hosted" || node?.type === "live")
    return (await hub.threads.readAsync(node.threadId))?.metadata.agentSessionId ?? undefined;
  return undefined;
}

export async function copySessionId(hub: Hub, node?: SessionNode): Promise<void> {
  const id = await sessionIdOf(hub, node);
  if (!id) throw new Error("No agent session id yet.");
  await vscode.env.clipboard.writeText(id);
  void vscode.window.setStatusBarMessage(`Copied session id ${id}`, 3000);
}
