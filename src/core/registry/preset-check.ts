/**
 * The built-in presets and the registry must not contradict each other: a registry entry of a preset's agent
 * (`AgentPreset.registryIds`) installs the preset's npm package, or it is marked superseded with that package as
 * its successor (deprecated.ts). Checked against the bundled snapshot by a unit test, so a snapshot refresh or a
 * preset change that makes "Add agent…" and Doctor name different adapters fails there.
 */
import { AGENT_PRESETS, type AgentPreset } from "../acp/agent-registry";
import { deprecationOf, registryPackage } from "./deprecated";
import type { RegistryAgent } from "./types";

/** `npm i -g @scope/name` → `@scope/name`. */
export function presetPackage(preset: AgentPreset): string | undefined {
  return /^npm i(?:nstall)? -g (\S+)$/.exec(preset.install)?.[1];
}

/** One line per registry entry that names another adapter than its preset without being marked superseded. */
export function presetDisagreements(
  agents: readonly RegistryAgent[],
  presets: readonly AgentPreset[] = AGENT_PRESETS,
): string[] {
  const out: string[] = [];
  for (const preset of presets) {
    const pkg = presetPackage(preset);
    for (const entry of agents.filter((a) => preset.registryIds?.includes(a.id))) {
      const deprecated = deprecationOf(entry);
      if (deprecated) {
        if (deprecated.successor !== pkg)
          out.push(`${entry.id}: superseded by ${deprecated.successor}, but the ${preset.id} preset installs ${pkg}`);
        continue;
      }
      const theirs = registryPackage(entry);
      if (theirs !== undefined && theirs !== pkg)
        out.push(`${entry.id} ${entry.version}: installs ${theirs}, the ${preset.id} preset ${pkg}`);
    }
  }
  return out;
}
