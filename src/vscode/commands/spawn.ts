/**
 * "Spawn coding agent": pick an agent (marked available/missing by doctor) or an exec command, type the
 * task, pick run mode (one turn) or session mode (keeps the agent), in the chosen workspace folder.
 */
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import { agentsWithDoctor, configuredAgents } from "../agents";
import type { AgentChoice } from "../agents";
import { EXEC_CHOICES, startExec } from "../exec-terminal";
import type { Hub } from "../hub";
import type { RunMode } from "../live-session";
import { assertTrusted } from "../trust";

type Pick = vscode.QuickPickItem &
  ({ agent: AgentChoice } | { exec: (typeof EXEC_CHOICES)[number] } | { kindSeparator: true });

async function pickFolder(): Promise<string | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) return folders[0]?.uri.fsPath ?? process.cwd();
  return (await vscode.window.showWorkspaceFolderPick({ placeHolder: "Run the agent in which folder?" }))?.uri.fsPath;
}

/** Arguments for scripted use (tests, other extensions): skips the pickers it covers. */
export interface SpawnArgs {
  agentId: string;
  task: string;
  mode?: RunMode;
  cwd?: string;
}

export async function spawnCommand(hub: Hub, args?: SpawnArgs): Promise<string | undefined> {
  assertTrusted();
  if (args && typeof args === "object" && typeof args.agentId === "string") {
    const agent = configuredAgents(hub.config).find((a) => a.spec.id === args.agentId);
    if (!agent) throw new Error(`No agent "${args.agentId}" is configured.`);
    const cwd = args.cwd ?? (await pickFolder());
    if (!cwd) return undefined;
    return hub.spawnSession({
      agent: agent.spec,
      task: String(args.task ?? ""),
      mode: args.mode === "run" ? "run" : "session",
      cwd,
    }).threadId;
  }
  const agents = await agentsWithDoctor(
    hub.config,
    vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd(),
  );
  const items: Pick[] = [
    { label: "ACP agents", kind: vscode.QuickPickItemKind.Separator, kindSeparator: true },
    ...agents.map((a): Pick => {
      const ok = a.doctor?.available !== false;
      return {
        label: `${ok ? "$(pass)" : "$(warning)"} ${a.spec.displayName}`,
        description: ok ? (a.source === "demo" ? "offline demo" : (a.doctor?.version ?? "available")) : "missing",
        detail: ok ? `${a.spec.command} ${a.spec.args.join(" ")}`.trim() : (a.doctor?.problem ?? undefined),
        agent: a,
      };
    }),
    { label: "Exec (agent CLI in a terminal)", kind: vscode.QuickPickItemKind.Separator, kindSeparator: true },
    ...EXEC_CHOICES.map((e): Pick => ({ label: `$(terminal) ${e.label}`, detail: e.detail, exec: e })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder: "Which agent?",
    matchOnDetail: true,
    title: "ACP Threads: Spawn coding agent",
  });
  if (!picked || "kindSeparator" in picked) return undefined;
  const task = await vscode.window.showInputBox({
    title: picked.label.replace(/^\$\([\w-]+\) /, ""),
    prompt: "exec" in picked && picked.exec.id === "custom" ? "Command line to run" : "What should the agent do?",
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : "Type a task (or a command line)."),
  });
  if (!task) return undefined;
  const cwd = await pickFolder();
  if (!cwd) return undefined;
  if ("exec" in picked) {
    await startExec(hub, picked.exec, task, cwd);
    return undefined;
  }
  if (picked.agent.doctor?.available === false) {
    const go = await vscode.window.showWarningMessage(
      `${picked.agent.spec.displayName} looks missing: ${picked.agent.doctor.problem ?? "not found"}`,
      "Try anyway",
    );
    if (!go) return undefined;
  }
  const mode = await vscode.window.showQuickPick(
    [
      { label: "Session", description: "keep the agent for follow-ups", mode: "session" as RunMode },
      { label: "Run", description: "one turn, then the agent exits", mode: "run" as RunMode },
    ],
    { placeHolder: "Run mode" },
  );
  if (!mode) return undefined;
  try {
    return hub.spawnSession({ agent: picked.agent.spec, task, mode: mode.mode, cwd }).threadId;
  } catch (err) {
    void vscode.window.showErrorMessage(`ACP Threads: ${errorMessage(err)}`);
    return undefined;
  }
}
