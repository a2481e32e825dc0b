/**
 * The Best of N wizard's steps (#25, #37): which agents, how many runs, the check command and the sandbox. The
 * task comes from a new-thread panel's prompt box ("best of N" checked: multi-line, with its `@` context); the
 * one-line task box is left only for scripted callers that name the agents but no task.
 */
import * as vscode from "vscode";
import { handoffAgents, type HandoffAgent } from "../handoff/agent-pick";
import type { Hub } from "../hub";

/** What the wizard asked; `prompt` only when it asked the task too. */
export interface WizardAnswers {
  agents: string[];
  runs: number;
  check?: string;
  prompt?: string;
  sandbox?: boolean;
}

interface BestOfAgentItem extends vscode.QuickPickItem {
  id: string;
  available: boolean;
}

/** The wizard's agent rows: the ones that can start first, the others marked with why; equal names told apart. */
export function bestOfAgentItems(agents: HandoffAgent[], picked?: string): BestOfAgentItem[] {
  const named = new Map<string, number>();
  for (const a of agents) named.set(a.spec.displayName, (named.get(a.spec.displayName) ?? 0) + 1);
  const name = (a: HandoffAgent) =>
    named.get(a.spec.displayName)! > 1 ? `${a.spec.displayName} (${a.spec.id})` : a.spec.displayName;
  const ordered = [...agents.filter((a) => a.available), ...agents.filter((a) => !a.available)];
  return ordered.map((a) => ({
    label: a.available ? name(a) : `$(circle-slash) ${name(a)}`,
    description: a.available ? (a.detail ?? a.spec.id) : "cannot start here",
    ...(a.available ? {} : { detail: a.hint ?? `'${a.spec.command}' not found` }),
    ...(a.available && a.spec.id === picked ? { picked: true } : {}),
    id: a.spec.id,
    available: a.available,
  }));
}

/**
 * Asks the agents, the runs, (`askTask`: the task,) the check command and (`askSandbox`: the sandbox); undefined
 * when the person closed a step. `picked`: the agent the panel had picked, checked in the list.
 */
export async function askBestOf(
  hub: Hub,
  cwd: string,
  o: { picked?: string; askTask: boolean; askSandbox: boolean },
): Promise<WizardAnswers | undefined> {
  // every step keeps its input when the focus moves (a webview taking the focus back closed it: stop 28's CI)
  const agents = await handoffAgents(hub.config, cwd, hub.registry, hub.pathAnswers);
  const picked = await vscode.window.showQuickPick(bestOfAgentItems(agents, o.picked), {
    canPickMany: true,
    title: "Best of N: which agents?",
    placeHolder: "Pick one or more agents (one agent picked runs several times)",
    ignoreFocusOut: true,
  });
  if (!picked?.length) return undefined;
  const blocked = picked.filter((p) => !p.available);
  if (blocked.length) {
    void vscode.window.showWarningMessage(
      `${blocked.map((b) => `${b.label.replace("$(circle-slash) ", "")}: ${b.detail}`).join("; ")} — cannot start here, left out.`,
    );
    picked.splice(0, picked.length, ...picked.filter((p) => p.available));
    if (!picked.length) return undefined;
  }
  const runsText = await vscode.window.showInputBox({
    title: "Best of N: runs per agent",
    prompt: "How many candidates each picked agent runs",
    value: picked.length === 1 ? "2" : "1",
    validateInput: (v) => (/^[1-9]$/.test(v.trim()) ? undefined : "a number from 1 to 9"),
    ignoreFocusOut: true,
  });
  if (!runsText) return undefined;
  let prompt: string | undefined;
  if (o.askTask) {
    prompt = await vscode.window.showInputBox({
      title: "Best of N: the task",
      prompt: "The task every candidate gets",
      ignoreFocusOut: true,
    });
    if (!prompt?.trim()) return undefined;
  }
  const check = await vscode.window.showInputBox({
    title: "Best of N: check command (optional)",
    prompt: "A check command run in each worktree when its agent is done (empty: none)",
    placeHolder: "npm test",
    ignoreFocusOut: true,
  });
  if (check === undefined) return undefined;
  const sandbox = o.askSandbox ? await askSandbox(hub) : undefined;
  if (o.askSandbox && sandbox === undefined) return undefined;
  return {
    agents: picked.map((p) => p.id),
    runs: Number(runsText.trim()),
    ...(check.trim() ? { check: check.trim() } : {}),
    ...(prompt !== undefined ? { prompt } : {}),
    ...(sandbox !== undefined ? { sandbox } : {}),
  };
}

/** "Sandbox the candidates?", the settings' answer first (the unattended default, or `acpThreads.sandbox.mode`). */
async function askSandbox(hub: Hub): Promise<boolean | undefined> {
  const here = await hub.engine.call({ op: "sandbox.availability" });
  const byDefault = here.available && (hub.config.sandbox === "workspace-write" || hub.config.sandboxUnattended);
  const yes = {
    label: "Sandboxed",
    description: here.available ? "writes only in its worktree; secrets unreadable" : "cannot sandbox here",
    ...(here.available ? {} : { detail: here.problem }),
    on: true,
  };
  const no = { label: "Not sandboxed", description: "the agents run as you", on: false };
  const picked = await vscode.window.showQuickPick(byDefault ? [yes, no] : [no, yes], {
    title: "Best of N: sandbox the candidates?",
    placeHolder: "Run each candidate in the OS sandbox (acpThreads.sandbox.mode)",
    ignoreFocusOut: true,
  });
  return picked?.on;
}
