/** Doctor, protocol log, permissions, cancel, sessions filter. */
import * as vscode from "vscode";
import { PermissionStore } from "../../core/acp/permission-store";
import { agentsWithDoctor, type AgentChoice } from "../agents";
import type { Hub } from "../hub";
import type { SessionNode } from "../sessions-tree";

/** " · registry 1.2.0 · update available: 1.3.0" for an agent installed from the ACP Registry. */
const registryNote = (a: AgentChoice) =>
  a.installed
    ? ` · registry ${a.installed.version}${a.installed.update ? ` · update available: ${a.installed.update}` : ""}`
    : "";

export async function doctorCommand(hub: Hub): Promise<void> {
  const agents = await agentsWithDoctor(
    hub.config,
    vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd(),
    hub.registry,
  );
  const log = hub.log.logger;
  log.info("doctor:");
  for (const a of agents) {
    const d = a.doctor;
    log.info(
      `  ${a.spec.id.padEnd(10)} ${d?.available ? "ok     " : "MISSING"} ${d?.resolvedPath ?? a.spec.command} ${d?.version ?? ""} ${d?.problem ?? ""}${registryNote(a)}`,
    );
  }
  for (const bad of hub.config.invalidAgents) log.warn(`  acpThreads.agents.${bad}: needs a "command" string`);
  await vscode.window.showQuickPick(
    agents.map((a) => ({
      label: `${a.doctor?.available ? "$(pass)" : "$(error)"} ${a.spec.displayName}`,
      description:
        (a.doctor?.available ? (a.doctor.version ?? a.doctor.resolvedPath ?? "") : "missing") + registryNote(a),
      detail: a.doctor?.problem ?? a.doctor?.resolvedPath ?? a.spec.command,
    })),
    { title: "ACP Threads: Doctor", placeHolder: "Agents and their status (details in the ACP Threads output)" },
  );
}

export async function revokePermissions(hub: Hub): Promise<void> {
  const store = new PermissionStore(hub.home);
  const rules = store.rules();
  if (!rules.length) return void vscode.window.showInformationMessage("No remembered permissions.");
  const picked = await vscode.window.showQuickPick(
    [
      { label: "All agents", description: `${rules.length} rule(s)`, agentId: undefined as string | undefined },
      ...[...new Set(rules.map((r) => r.agentId))].map((a) => ({
        label: a,
        description: `${rules.filter((r) => r.agentId === a).length} rule(s)`,
        agentId: a as string | undefined,
      })),
    ],
    { title: "Revoke remembered permissions", placeHolder: "Forget 'always allow' decisions of…" },
  );
  if (!picked) return;
  const n = picked.agentId ? await store.revoke(picked.agentId) : await store.revokeAll();
  // Running agents hold their own copy of the rules: revoke there too, so they ask again at once.
  await Promise.all(hub.live.all().map((s) => s.revokePermissions(picked.agentId)));
  void vscode.window.showInformationMessage(`Revoked ${n} remembered permission(s). Agents will ask again.`);
}

export async function cancelTurn(hub: Hub, node?: SessionNode): Promise<void> {
  if (node?.type === "live") await hub.live.get(node.threadId)?.cancel();
}

/**
 * Ends a live session (the tree item's, else the focused panel's, else one picked): the agent is stopped, the
 * thread released (another window or `acp-threads run` can take it over) and listed with the past threads.
 */
export async function stopSession(hub: Hub, node?: SessionNode | string): Promise<void> {
  const open = hub.live.all().filter((s) => s.isOpen);
  const focused = hub.panels.lastActive();
  let threadId =
    typeof node === "string"
      ? node
      : node?.type === "live"
        ? node.threadId
        : open.find((s) => s.threadId === focused)?.threadId;
  if (!threadId) {
    if (!open.length) return void vscode.window.showInformationMessage("No agent session is running in this window.");
    const picked = await vscode.window.showQuickPick(
      open.map((s) => ({ label: s.title, description: `${s.agent.displayName} · ${s.status}`, threadId: s.threadId })),
      { title: "Stop session", placeHolder: "Which session? Its agent is stopped and the thread released." },
    );
    threadId = picked?.threadId;
  }
  if (!threadId || !(await hub.live.stop(threadId))) return;
  hub.panels.refresh(threadId); // an open panel now shows the stored thread
}

export async function filterSessions(hub: Hub): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const agents = await hub.past.agents().catch(() => [] as string[]);
  const scope = await vscode.window.showQuickPick(
    [
      { label: "This workspace", all: false },
      { label: "All workspaces", all: true },
    ],
    { placeHolder: "Which sessions?" },
  );
  if (!scope) return;
  const agent = agents.length
    ? await vscode.window.showQuickPick(
        [
          { label: "Any agent", agent: undefined as string | undefined },
          ...agents.map((a) => ({ label: a, agent: a as string | undefined })),
        ],
        { placeHolder: "Which agent?" },
      )
    : undefined;
  hub.tree.filter = { cwds: scope.all ? [] : folders, agent: agent?.agent };
  hub.tree.refresh();
}
