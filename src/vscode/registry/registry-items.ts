/**
 * The QuickPick items of "Add agent…" / "Update agent…" / "Remove agent…": one per registry agent with its
 * name, version, distribution kind, licence and auth kind (asked from the agent at install), its description,
 * its icon, and "installed" / "update available" marks; a separator says when the list is not the network's
 * (cached copy or bundled snapshot).
 */
import * as vscode from "vscode";
import { authLabel } from "../../core/registry/auth-label";
import { deprecationOf } from "../../core/registry/deprecated";
import { installKindOf, registryPlatformOf } from "../../core/registry/platform";
import type { InstalledAgent, RegistryAgent, RegistryListing } from "../../core/registry/types";
import { updateFor } from "../../core/registry/update-for";

export interface AgentItem extends vscode.QuickPickItem {
  agent?: RegistryAgent;
  installed?: InstalledAgent;
}

const SOURCE_WORDS = { cache: "the cached copy", snapshot: "the bundled snapshot", network: "" } as const;

/** "Offline: …" when the registry could not be read (the listing says why). */
export function offlineNote(listing: RegistryListing): string | undefined {
  return listing.source === "network" ? undefined : `Registry unreachable: showing ${SOURCE_WORDS[listing.source]}`;
}

/**
 * The registry QuickPick's placeholder: the offline note and why, without the core's "(using the bundled
 * snapshot)" the note already says (it read twice, #37).
 */
export function registryPlaceholder(listing: RegistryListing): string {
  const note = offlineNote(listing);
  if (!note) return "Search agents by name, description, licence or kind";
  return `${note} (${(listing.error ?? "unknown error").replace(/ \(using [^)]*\)$/, "")}). Type to search.`;
}

/** The registry's icons are 16×16 SVGs in currentColor: a data: SVG gets a light and a dark variant. */
function iconOf(icon: string | undefined): AgentItem["iconPath"] {
  if (!icon) return undefined;
  const m = /^data:image\/svg\+xml(;base64)?,(.*)$/s.exec(icon);
  if (!m) return /^https:\/\//.test(icon) ? vscode.Uri.parse(icon) : undefined;
  let svg: string;
  try {
    svg = m[1] ? Buffer.from(m[2]!, "base64").toString("utf8") : decodeURIComponent(m[2]!);
  } catch {
    return undefined;
  }
  const tinted = (color: string) =>
    vscode.Uri.parse(
      `data:image/svg+xml;base64,${Buffer.from(svg.replace(/currentColor/g, color)).toString("base64")}`,
    );
  return { light: tinted("#424242"), dark: tinted("#C5C5C5") };
}

function kindOf(agent: RegistryAgent): string {
  return installKindOf(agent, registryPlatformOf(process.platform, process.arch)) ?? "no build for this platform";
}

export function agentItem(agent: RegistryAgent, installed?: InstalledAgent, update?: RegistryAgent): AgentItem {
  const deprecated = deprecationOf(agent);
  const superseded = deprecated ? `$(warning) ${deprecated.reason}: use ${deprecated.successor}` : "";
  const mark = update
    ? `$(arrow-circle-up) update available: ${installed!.version} → ${update.version}`
    : installed
      ? `$(check) installed ${installed.version}`
      : "";
  return {
    label: agent.name,
    description: [agent.version, kindOf(agent), agent.license, authLabel(installed?.auth, !!installed)]
      .filter(Boolean)
      .join(" · "),
    detail: [superseded, mark, agent.description].filter(Boolean).join(" — "),
    iconPath: iconOf(agent.icon),
    agent,
    installed,
  };
}

const separator = (label: string): AgentItem => ({ label, kind: vscode.QuickPickItemKind.Separator });

/** Every registry agent: installed ones first (updates on top), then the others by name. */
export function registryItems(listing: RegistryListing, installed: InstalledAgent[]): AgentItem[] {
  const mine = new Map(installed.map((a) => [a.id, a]));
  const items: AgentItem[] = [];
  const note = offlineNote(listing);
  if (note) items.push(separator(note));
  const agents = [...listing.index.agents].sort((a, b) => a.name.localeCompare(b.name));
  const newer = (a: RegistryAgent) => {
    const i = mine.get(a.id);
    return (i && updateFor(i, listing.index)) ?? undefined;
  };
  const have = agents.filter((a) => mine.has(a.id)).sort((a, b) => Number(!!newer(b)) - Number(!!newer(a)));
  if (have.length) items.push(separator("Installed"), ...have.map((a) => agentItem(a, mine.get(a.id), newer(a))));
  // a superseded adapter is offered last, marked, never next to the current ones as an equal
  const rest = agents
    .filter((a) => !mine.has(a.id))
    .sort((a, b) => Number(!!deprecationOf(a)) - Number(!!deprecationOf(b)));
  if (rest.length) items.push(separator("Available"), ...rest.map((a) => agentItem(a)));
  return items;
}
