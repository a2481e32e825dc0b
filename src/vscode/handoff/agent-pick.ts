/**
 * "Hand off to…": the agents that can start here first; the ones that cannot (not installed, command not found)
 * collapsed under a separator behind one "N more…" item, which opens them with their install hints. Whether an
 * agent can start is the new-thread picker's quick check (its command resolves on PATH).
 */
import * as vscode from "vscode";
import type { AgentSpec } from "../../core/model/agent";
import { configuredAgents } from "../agents";
import { quickAgentOptions } from "../composer/agent-options";
import type { Config } from "../config";
import type { PathAnswers } from "../engine";
import type { RegistryService } from "../registry/registry-service";

export interface HandoffAgentItem extends vscode.QuickPickItem {
  spec?: AgentSpec;
  /** The agent cannot start here: what to install. */
  hint?: string;
  /** The "N more agents cannot start…" item: shows them. */
  expand?: boolean;
  /** "Add an agent from the ACP Registry…". */
  addAgent?: boolean;
}

export interface HandoffAgent {
  spec: AgentSpec;
  available: boolean;
  hint?: string;
  detail?: string;
}

export async function handoffAgents(
  config: Config,
  cwd: string,
  registry?: RegistryService,
  paths?: PathAnswers,
): Promise<HandoffAgent[]> {
  const options = new Map((await quickAgentOptions(config, cwd, registry, paths)).map((o) => [o.id, o]));
  return (await configuredAgents(config, registry)).map((a) => {
    const o = options.get(a.spec.id);
    return {
      spec: a.spec,
      available: o?.available ?? false,
      ...(o?.hint ? { hint: o.hint } : {}),
      ...(o?.detail ? { detail: o.detail } : {}),
    };
  });
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The picker's items: startable agents, then (collapsed unless `expanded`) the ones that cannot start. */
export function handoffAgentItems(agents: HandoffAgent[], fromAgentId: string, expanded: boolean): HandoffAgentItem[] {
  const ready = agents.filter((a) => a.available);
  const missing = agents.filter((a) => !a.available);
  const items: HandoffAgentItem[] = ready.map((a) => ({
    label: a.spec.displayName,
    description: a.spec.id === fromAgentId ? "the agent of this thread" : (a.detail ?? a.spec.id),
    spec: a.spec,
  }));
  if (missing.length) {
    items.push({ label: "Cannot start here", kind: vscode.QuickPickItemKind.Separator });
    if (expanded || !ready.length)
      for (const a of missing)
        items.push({
          label: `$(circle-slash) ${a.spec.displayName}`,
          description: "not installed",
          detail: a.hint ?? `'${a.spec.command}' not found`,
          hint: a.hint ?? `'${a.spec.command}' not found`,
        });
    else
      items.push({
        label: `$(chevron-down) ${plural(missing.length, "more agent cannot", "more agents cannot")} start…`,
        description: missing.map((a) => a.spec.displayName).join(", "),
        expand: true,
        alwaysShow: true,
      });
  }
  items.push({ label: "$(add) Add an agent from the ACP Registry…", addAgent: true, alwaysShow: true });
  return items;
}

/** Asks which agent takes over; undefined when the person backs out (or picks one that cannot start). */
export async function pickHandoffAgent(
  agents: HandoffAgent[],
  from: { agentId: string; title: string },
): Promise<AgentSpec | undefined> {
  let expanded = false;
  for (;;) {
    const items = handoffAgentItems(agents, from.agentId, expanded);
    const pick = await vscode.window.showQuickPick(items, {
      title: `Hand off “${from.title}” to…`,
      placeHolder: agents.some((a) => a.available)
        ? "The agent that takes over"
        : "No agent can start here: install one first",
      matchOnDescription: true,
    });
    if (!pick) return undefined;
    if (pick.spec) return pick.spec;
    if (pick.expand) {
      expanded = true;
      continue;
    }
    if (pick.addAgent) return void vscode.commands.executeCommand("acpThreads.addAgent");
    if (pick.hint) {
      const name = pick.label.replace(/^\$\([^)]*\)\s*/, "");
      const again = await vscode.window.showWarningMessage(
        `${name} cannot start here: ${pick.hint}`,
        "Add an agent…",
        "Pick another",
      );
      if (again === "Add an agent…") return void vscode.commands.executeCommand("acpThreads.addAgent");
      if (again !== "Pick another") return undefined;
    }
  }
}
