/** Doctor, protocol log, permissions, cancel, sessions filter. */
import { rmSync } from "node:fs";
import * as vscode from "vscode";
import { agentsWithDoctor } from "../agents";
import type { Hub } from "../hub";
import type { SessionNode } from "../sessions-tree";

export async function doctorCommand(hub: Hub): Promise<void> {
  const agents = await agentsWithDoctor(hub.config, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd());
  const log = hub.log.logger;
  log.info("doctor:");
  for (const a of agents) {
    const d = a.doctor;
    log.info(`  ${a.spec.id.padEnd(10)} ${d?.available ? "ok     " : "MISSING"} ${d?.resolvedPath ?? a.spec.command} ${d?.version ?? ""} ${d?.problem ?? ""}`);
  }
  for (const bad of hub.config.invalidAgents) log.warn(`  acpThreads.agents.${bad}: needs a "command" string`);
  await vscode.window.showQuickPick(
    agents.map((a) => ({
      label: `${a.doctor?.available ? "$(pass)" : "$(error)"} ${a.spec.displayName}`,
      description: a.doctor?.available ? a.doctor.version ?? a.doctor.resolvedPath ?? "" : "missing",
      detail: a.doctor?.problem ?? a.doctor?.resolvedPath ?? a.spec.command,
    })),
    { title: "ACP Threads: Doctor", placeHolder: "Agents and their status (details in the ACP Threads output)" },
  );
}

export async function revokePermissions(hub: Hub): Promise<void> {
  const ok = await vscode.window.showWarningMessage("Forget every remembered 'always allow' permission?", { modal: true }, "Revoke");
  if (ok !== "Revoke") return;
  rmSync(hub.layout.permissionsFile, { force: true });
  void vscode.window.showInformationMessage("Remembered permissions revoked. Agents will ask again.");
}

export async function cancelTurn(hub: Hub, node?: SessionNode): Promise<void> {
  if (node?.type === "live") await hub.live.get(node.threadId)?.cancel();
}

export async function filterSessions(hub: Hub): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const agents = await hub.store.agents().catch(() => [] as string[]);
  const scope = await vscode.window.showQuickPick(
    [
      { label: "This workspace", all: false },
      { label: "All workspaces", all: true },
    ],
    { placeHolder: "Which sessions?" },
  );
  if (!scope) return;
  const agent = agents.length
    ? await vscode.window.showQuickPick([{ label: "Any agent", agent: undefined as string | undefined }, ...agents.map((a) => ({ label: a, agent: a as string | undefined }))], { placeHolder: "Which agent?" })
    : undefined;
  hub.tree.filter = { cwds: scope.all ? [] : folders, agent: agent?.agent };
  hub.tree.refresh();
}
