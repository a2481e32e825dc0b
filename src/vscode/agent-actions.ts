/**
 * What an agent's row offers when it is picked (#37): a Doctor row, or a "Not installed" agent of the new-thread
 * picker. An agent that can start: a new thread with it. One that cannot: add it from the ACP Registry (when the
 * registry lists it), install it in a terminal or copy its install command (a preset's), open its docs.
 */
import { setTimeout as sleep } from "node:timers/promises";
import * as vscode from "vscode";
import { findPreset } from "../core/acp/agent-presets";
import { configuredAgent } from "./agents";
import type { Hub } from "./hub";

export type AgentAction = "newThread" | "importSessions" | "add" | "install" | "copy" | "docs";

/** What is known about an agent for its actions. */
export interface AgentFacts {
  id: string;
  displayName: string;
  /** It can start here (doctor found its command). */
  available: boolean;
  /** The shell command that installs it (a preset's `npm i -g …`). */
  install?: string;
  docs?: string;
  /** The ACP Registry lists it and it is not installed from there yet. */
  inRegistry: boolean;
  /** Its `initialize` answer (Doctor's probe) says it lists and loads its sessions: they can be imported. */
  listsSessions?: boolean;
}

export interface AgentActionItem extends vscode.QuickPickItem {
  action: AgentAction;
}

/** How long a row waits for the registry's list (the network, else its cache or snapshot) before going without. */
const REGISTRY_WAIT_MS = 3_000;

/** The npm page of the package an `npm i -g <package>` command installs. */
function npmPage(install: string | undefined): string | undefined {
  const pkg = install?.match(/^npm i(?:nstall)? -g (\S+)$/)?.[1];
  return pkg ? `https://www.npmjs.com/package/${pkg}` : undefined;
}

export async function agentFacts(
  hub: Hub,
  id: string,
  displayName: string,
  available: boolean,
  listsSessions = false,
): Promise<AgentFacts> {
  const preset = findPreset(id);
  const listing =
    hub.registry.last ?? (await Promise.race([hub.registry.listing().catch(() => undefined), sleep(REGISTRY_WAIT_MS)]));
  const entry = listing?.index.agents.find((a) => a.id === id);
  const installed = (await hub.registry.installed()).some((a) => a.id === id);
  const docs = entry?.website ?? entry?.repository ?? npmPage(preset?.install);
  return {
    id,
    displayName,
    available,
    ...(preset ? { install: preset.install } : {}),
    ...(docs ? { docs } : {}),
    inRegistry: !!entry && !installed,
    ...(listsSessions && available ? { listsSessions } : {}),
  };
}

export function agentActionItems(f: AgentFacts): AgentActionItem[] {
  const items: AgentActionItem[] = [];
  if (f.available) items.push({ action: "newThread", label: `$(comment-discussion) New thread with ${f.displayName}` });
  if (f.listsSessions)
    items.push({
      action: "importSessions",
      label: "$(cloud-download) Import its sessions of this folder",
      detail: "sessions made in its own CLI or another editor become threads (session/list, session/load)",
    });
  if (f.inRegistry)
    items.push({
      action: "add",
      label: "$(cloud-download) Add from the ACP Registry",
      detail: "installed into ACP Threads' data home",
    });
  if (f.install && !f.available)
    items.push({ action: "install", label: "$(terminal) Install in a terminal", detail: f.install });
  if (f.install) items.push({ action: "copy", label: "$(copy) Copy install command", detail: f.install });
  if (f.docs) items.push({ action: "docs", label: "$(link-external) Open docs", detail: f.docs });
  return items;
}

export async function runAgentAction(hub: Hub, f: AgentFacts, action: AgentAction): Promise<void> {
  switch (action) {
    case "newThread": {
      const threadId = hub.composer.openDraft();
      return await hub.composer.agents.pick(threadId, f.id);
    }
    case "importSessions":
      return void (await vscode.commands.executeCommand("acpThreads.importAgentSessions", f.id));
    case "add":
      return void (await vscode.commands.executeCommand("acpThreads.addAgent", f.id));
    case "install": {
      const t = vscode.window.createTerminal({ name: `Install ${f.displayName}` });
      t.show();
      return t.sendText(f.install!, true);
    }
    case "copy":
      await vscode.env.clipboard.writeText(f.install!);
      return void vscode.window.setStatusBarMessage(`$(check) Copied: ${f.install}`, 4000);
    case "docs":
      return void (await vscode.env.openExternal(vscode.Uri.parse(f.docs!)));
  }
}

/** Shows what `f`'s row offers and runs the pick; `pick` (tests, scripts) skips the QuickPick. */
export async function offerAgentActions(hub: Hub, f: AgentFacts, pick?: AgentAction): Promise<AgentAction | undefined> {
  const items = agentActionItems(f);
  const action =
    pick ??
    (
      await vscode.window.showQuickPick(items, {
        title: `${f.displayName}${f.available ? "" : ": not installed"}`,
        placeHolder: "What to do with this agent",
      })
    )?.action;
  if (!action || !items.some((i) => i.action === action)) return undefined;
  await runAgentAction(hub, f, action);
  return action;
}

/** A "Not installed" agent of the new-thread picker: its actions. */
export async function offerMissingAgent(hub: Hub, agentId: string): Promise<AgentAction | undefined> {
  const choice = await configuredAgent(hub.config, hub.registry, agentId);
  return await offerAgentActions(hub, await agentFacts(hub, agentId, choice?.spec.displayName ?? agentId, false));
}
