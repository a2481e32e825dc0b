/**
 * "Add agent…", "Update agent…", "Remove agent…": the ACP Registry's agents in a searchable QuickPick, installed
 * into the data home by the registry core (src/core/registry) with a progress notification. Scripted callers
 * (tests, other extensions) pass the agent id and skip the QuickPick; the commands resolve with what happened.
 */
import * as vscode from "vscode";
import { deprecationOf } from "../../core/registry/deprecated";
import type { RegistryAgent, RegistryListing } from "../../core/registry/types";
import type { Hub } from "../hub";
import { installWithProgress, type InstallOutcome } from "../registry/install-progress";
import { offlineNote, registryItems, registryPlaceholder, type AgentItem } from "../registry/registry-items";
import { assertTrusted } from "../trust";
import { background } from "../../core/util/unexpected";

/** Reads the registry while the QuickPick shows busy; the title says when the list is not the network's. */
async function pickFromRegistry(
  hub: Hub,
  title: string,
  items: (l: RegistryListing) => AgentItem[],
): Promise<AgentItem | undefined> {
  const qp = vscode.window.createQuickPick<AgentItem>();
  qp.title = title;
  qp.placeholder = "Reading the ACP Registry…";
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.busy = true;
  qp.show();
  const abort = new AbortController();
  const picked = new Promise<AgentItem | undefined>((resolve) => {
    qp.onDidAccept(() => qp.selectedItems[0]?.agent && resolve(qp.selectedItems[0]));
    qp.onDidHide(() => resolve(undefined));
  });
  void hub.registry.listing(abort.signal).then(
    (listing) => {
      const note = offlineNote(listing);
      qp.items = items(listing);
      qp.placeholder = registryPlaceholder(listing);
      if (note) qp.title = `${title} (offline: ${listing.source === "cache" ? "cached copy" : "bundled snapshot"})`;
      qp.busy = false;
    },
    (err) => {
      qp.placeholder = `Could not read the registry: ${String(err)}`;
      qp.busy = false;
    },
  );
  const item = await picked;
  abort.abort();
  qp.dispose();
  return item;
}

async function findAgent(hub: Hub, id: string): Promise<RegistryAgent> {
  const listing = await hub.registry.listing();
  const agent = listing.index.agents.find((a) => a.id === id);
  if (!agent) {
    const bad = listing.rejected.find((r) => r.id === id);
    throw new Error(
      bad ? `the registry's entry for "${id}" is invalid: ${bad.reason}` : `no agent "${id}" in ${listing.url}`,
    );
  }
  return agent;
}

async function afterInstall(hub: Hub, outcome: InstallOutcome): Promise<void> {
  if (!("installed" in outcome)) return;
  const { name, version } = outcome.installed;
  const choice = await vscode.window.showInformationMessage(
    `ACP Threads: ${name} ${version} is installed.`,
    "New thread",
  );
  if (choice === "New thread") hub.composer.openDraft();
}

export async function addAgentCommand(hub: Hub, id?: unknown): Promise<InstallOutcome | undefined> {
  assertTrusted();
  let agent: RegistryAgent | undefined;
  if (typeof id === "string") agent = await findAgent(hub, id);
  else {
    const installed = await hub.registry.installed();
    const item = await pickFromRegistry(hub, "ACP Threads: Add agent", (l) => registryItems(l, installed));
    if (!item?.agent) return undefined;
    if (item.installed && item.installed.version === item.agent.version) {
      const again = await vscode.window.showInformationMessage(
        `${item.agent.name} ${item.agent.version} is already installed.`,
        "Reinstall",
        "New thread",
      );
      if (again === "New thread") return void hub.composer.openDraft();
      if (again !== "Reinstall") return undefined;
    }
    const deprecated = deprecationOf(item.agent);
    if (deprecated) {
      const go = await vscode.window.showWarningMessage(
        `${item.agent.name} ${item.agent.version} is a superseded adapter (${deprecated.reason}).`,
        {
          modal: true,
          detail: `Its package is replaced by ${deprecated.successor}, which the built-in preset runs: npm i -g ${deprecated.successor}.`,
        },
        "Install anyway",
      );
      if (go !== "Install anyway") return undefined;
    }
    agent = item.agent;
  }
  const outcome = await installWithProgress(hub.registry, agent);
  background(afterInstall(hub, outcome), "finishing the agent install");
  return outcome;
}

export async function updateAgentCommand(hub: Hub, id?: unknown): Promise<InstallOutcome | undefined> {
  assertTrusted();
  let agent: RegistryAgent | undefined;
  if (typeof id === "string") {
    await hub.registry.listing();
    agent = (await hub.registry.updates()).get(id);
    if (!agent) throw new Error(`"${id}" is not installed or is up to date`);
  } else {
    const installed = await hub.registry.installed();
    if (!installed.length) {
      return void vscode.window.showInformationMessage("ACP Threads: no agent is installed from the registry yet.");
    }
    const item = await pickFromRegistry(hub, "ACP Threads: Update agent", (l) =>
      registryItems(l, installed).filter((i) => !i.agent || i.installed),
    );
    agent = item?.agent && (await hub.registry.updates()).get(item.agent.id);
    if (item && !agent) void vscode.window.showInformationMessage(`${item.label} is up to date.`);
    if (!agent) return undefined;
  }
  const outcome = await installWithProgress(hub.registry, agent, "Updating");
  background(afterInstall(hub, outcome), "finishing the agent install");
  return outcome;
}

export async function removeAgentCommand(hub: Hub, id?: unknown): Promise<boolean> {
  let target = typeof id === "string" ? id : undefined;
  if (!target) {
    const installed = await hub.registry.installed();
    if (!installed.length) {
      void vscode.window.showInformationMessage("ACP Threads: no agent is installed from the registry.");
      return false;
    }
    const item = await vscode.window.showQuickPick(
      installed.map((a) => ({ label: a.name, description: `${a.version} · ${a.kind}`, detail: a.dir, id: a.id })),
      { title: "ACP Threads: Remove agent", placeHolder: "Remove which installed agent? (its threads stay)" },
    );
    if (!item) return false;
    const ok = await vscode.window.showWarningMessage(
      `Remove ${item.label} ${item.description}? Its files in the data home are deleted; its threads stay.`,
      { modal: true },
      "Remove",
    );
    if (ok !== "Remove") return false;
    target = item.id;
  }
  const gone = await hub.registry.remove(target);
  if (!gone) throw new Error(`"${target}" is not installed from the registry`);
  return gone;
}
