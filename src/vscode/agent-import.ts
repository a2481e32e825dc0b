/**
 * "Import sessions from agent…" (#36): the sessions an agent lists for this folder (its own CLI, Zed, another editor)
 * become threads in the Sessions view (core/import/agent-import.ts), with a cancellable progress notification.
 * `acpThreads.history.importAgentSessions` does it when an agent that lists its sessions starts: `ask` (the default)
 * asks once per agent per workspace, and only when the agent has sessions we do not (the running agent lists them:
 * no process is started for the question);
 * `always` imports in the background, once per agent per window, and says so only when something came in; `never`
 * leaves it to the command.
 */
import * as vscode from "vscode";
import { errorMessage } from "../core/errors";
import { background } from "../core/util/unexpected";
import type { AcpAgentRuntime } from "../core/acp/agent-runtime";
import {
  freshSessions,
  importAgentSessions,
  listAgentSessions,
  summaryLine,
  type ImportSummary,
} from "../core/import/agent-import";
import { agentRefOf, type AgentSpec } from "../core/model/agent";
import { configuredAgents } from "./agents";
import { createRuntime, resolveAgentCommand } from "./engine";
import type { Hub } from "./hub";
import type { LiveSession } from "./live-session";
import { nodeRuntimeOptions } from "./node-runtime";
import { assertTrusted } from "./trust";

export const IMPORT_AGENT_SESSIONS_SETTING = "history.importAgentSessions";
/** workspaceState: the agents this workspace was asked about (ask once per agent per workspace). */
const ASKED_KEY = "acpThreads.agentImport.asked";

export type ImportOnStart = "ask" | "always" | "never";

export function importOnStart(): ImportOnStart {
  const v = vscode.workspace.getConfiguration("acpThreads").get<string>(IMPORT_AGENT_SESSIONS_SETTING, "ask");
  return v === "always" || v === "never" ? v : "ask";
}

const folder = () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();

export interface ImportRun {
  signal?: AbortSignal;
  onProgress?: (message: string, increment: number) => void;
}

/** Imports `spec`'s sessions of this workspace's folder. */
export async function runAgentImport(hub: Hub, spec: AgentSpec, run: ImportRun = {}): Promise<ImportSummary> {
  const cwd = folder();
  const node = nodeRuntimeOptions(hub.config, hub.home);
  const logger = hub.log.protocol(`${spec.id} import`);
  let total = 0;
  const summary = await importAgentSessions({
    threadsDir: hub.threads.threadsDir,
    agent: agentRefOf(spec),
    // the agent's command looked up on PATH off the host's thread, for each folder its sessions are in
    startAgent: async (at) => {
      const command = await resolveAgentCommand(spec, at);
      return createRuntime(
        { agent: spec, cwd: at, permissionPolicy: "deny-all", logger },
        undefined,
        node,
        hub.launcher,
        command,
      );
    },
    cwd,
    listFrom: cwd,
    signal: run.signal,
    onProgress: (p) => {
      total = p.total;
      if (p.current) run.onProgress?.(`${p.done + 1}/${p.total}: ${p.current.title?.trim() || p.current.sessionId}`, 0);
      else run.onProgress?.(`${p.done}/${p.total}`, total ? 100 / total : 0);
    },
  });
  if (summary.imported + summary.updated > 0) {
    hub.past.catalog.rescan();
    hub.tree.refresh();
  }
  return summary;
}

async function pickAgent(hub: Hub, id: unknown): Promise<AgentSpec | undefined> {
  const agents = await configuredAgents(hub.config, hub.registry);
  if (typeof id === "string") {
    const found = agents.find((a) => a.spec.id === id);
    if (!found) throw new Error(`no agent "${id}" is configured`);
    return found.spec;
  }
  const picked = await vscode.window.showQuickPick(
    agents.map((a) => ({ label: a.spec.displayName, description: a.spec.id, spec: a.spec })),
    {
      title: "ACP Threads: Import sessions from agent",
      placeHolder: "Whose sessions of this folder? (agents that list their sessions: codex-acp 2.6, claude-agent-acp…)",
    },
  );
  return picked?.spec;
}

/** The command: picks the agent (or takes its id), imports with a cancellable progress, says what came in. */
export async function importAgentSessionsCommand(hub: Hub, agentId?: unknown): Promise<ImportSummary | undefined> {
  assertTrusted();
  const spec = await pickAgent(hub, agentId);
  if (!spec) return undefined;
  const summary = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `ACP Threads: importing ${spec.displayName}'s sessions`,
      cancellable: true,
    },
    (progress, token) => {
      const stop = new AbortController();
      token.onCancellationRequested(() => stop.abort());
      return runAgentImport(hub, spec, {
        signal: stop.signal,
        onProgress: (message, increment) => progress.report({ message, increment }),
      });
    },
  );
  const line = `${spec.displayName}: ${summaryLine(summary)}`;
  hub.log.logger.info(`import ${line}`);
  for (const s of summary.sessions.filter((x) => x.action === "failed"))
    hub.log.logger.warn(`import of ${spec.id} session ${s.sessionId} failed: ${s.reason}`);
  if (summary.failed) void vscode.window.showWarningMessage(`ACP Threads: ${line} (details in the ACP Threads output)`);
  else void vscode.window.showInformationMessage(`ACP Threads: ${line}`);
  return summary;
}

/** Offers (`offerAgentImport`) once per live session, when its agent has started and answered `initialize`. */
export function watchAgentStarts(hub: Hub): vscode.Disposable {
  const seen = new WeakSet<LiveSession>();
  return hub.live.onDidChange(() => {
    for (const s of hub.live.all()) {
      if (seen.has(s) || !s.isOpen || !s.thread?.capabilities) continue;
      seen.add(s);
      background(offerAgentImport(hub, s), "offering to import the agent's sessions");
    }
  });
}

/** Agents imported in the background in this window (`always`: once per agent per window). */
const importedThisWindow = new Set<string>();
/** Agents whose sessions were looked at for the question in this window (`ask`). */
const checkedThisWindow = new Set<string>();

/**
 * After `session` started: what `acpThreads.history.importAgentSessions` asks for, when the agent lists and loads its
 * sessions. Never throws (logged); the returned promise is for tests.
 */
export async function offerAgentImport(hub: Hub, session: LiveSession): Promise<void> {
  const mode = importOnStart();
  const caps = session.thread?.capabilities?.agentCapabilities;
  if (mode === "never" || !caps?.loadSession || !caps.sessionCapabilities?.list) return;
  const spec = session.agent;
  try {
    if (mode === "always") {
      if (importedThisWindow.has(spec.id)) return;
      importedThisWindow.add(spec.id);
      const summary = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: `Importing ${spec.displayName}'s sessions` },
        () => runAgentImport(hub, spec),
      );
      if (summary.imported + summary.updated > 0)
        background(
          hub.broker.notifier.show("info", `ACP Threads: ${spec.displayName}: ${summaryLine(summary)}`),
          "telling what was imported",
        );
      return;
    }
    const state = hub.context.workspaceState;
    const asked = state.get<string[]>(ASKED_KEY, []);
    if (asked.includes(spec.id)) return;
    // the running agent lists them (no process of its own for the question); once per agent per window
    const rt = session.thread?.runtime;
    if (!rt || !("listSessions" in rt) || checkedThisWindow.has(spec.id)) return;
    checkedThisWindow.add(spec.id);
    const listed = await listAgentSessions(rt as AcpAgentRuntime, { name: spec.displayName, cwd: folder() });
    const fresh = (await freshSessions(hub.threads.threadsDir, spec.id, listed)).length;
    if (!fresh) return;
    await state.update(ASKED_KEY, [...asked, spec.id]);
    const answer = await hub.broker.notifier.show(
      "info",
      `ACP Threads: ${spec.displayName} has ${fresh} session${fresh === 1 ? "" : "s"} of this folder that ${fresh === 1 ? "is" : "are"} not a thread here (made in its own CLI or another editor). Import ${fresh === 1 ? "it" : "them"}?`,
      "Import",
      "Always",
      "Not now",
    );
    if (answer === "Always")
      await vscode.workspace
        .getConfiguration("acpThreads")
        .update(IMPORT_AGENT_SESSIONS_SETTING, "always", vscode.ConfigurationTarget.Global);
    if (answer === "Import" || answer === "Always") await importAgentSessionsCommand(hub, spec.id);
  } catch (err) {
    hub.log.logger.warn(`importing ${spec.id}'s sessions on start: ${errorMessage(err)}`);
  }
}
