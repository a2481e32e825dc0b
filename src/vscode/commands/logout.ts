/**
 * "Log out of agent…": starts the picked agent, sends ACP `logout` (when the agent advertises
 * `agentCapabilities.auth.logout`; otherwise the agent's own error says it does not offer it) and shows the login
 * state the agent reports afterwards. Scripted callers pass the agent id and skip the QuickPick.
 */
import * as vscode from "vscode";
import { authStatusText, type AuthStatus } from "../../core/acp/auth-status";
import { configuredAgents } from "../agents";
import type { Hub } from "../hub";
import { nodeChoice } from "../node-runtime";

export async function logoutCommand(hub: Hub, id?: unknown): Promise<{ authStatus?: AuthStatus } | undefined> {
  const agents = await configuredAgents(hub.config, hub.registry);
  let choice = typeof id === "string" ? agents.find((a) => a.spec.id === id) : undefined;
  if (typeof id === "string" && !choice) throw new Error(`no agent "${id}" is configured`);
  if (!choice) {
    const picked = await vscode.window.showQuickPick(
      agents.map((a) => ({ label: a.spec.displayName, description: a.spec.id, choice: a })),
      { title: "ACP Threads: Log out of agent", placeHolder: "Log out of which agent?" },
    );
    if (!picked) return undefined;
    choice = picked.choice;
  }
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  // the agent's command as a session would start it (a path, or a name on PATH with the agent's env over ours)
  const { program: command } = await hub.engine.call({ op: "agents.which", spec: choice.spec, cwd });
  if (!command) throw new Error(`${choice.spec.displayName}: "${choice.spec.command}" was not found`);
  const spec = { ...choice.spec, command };
  const res = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `ACP Threads: logging out of ${spec.displayName}…` },
    () => hub.engine.call({ op: "agents.logout", spec, cwd, ...nodeChoice(hub.config) }),
  );
  const state = res.authStatus ? ` ${authStatusText(res.authStatus)}.` : "";
  void vscode.window.showInformationMessage(`ACP Threads: logged out of ${spec.displayName}.${state}`);
  return res;
}
