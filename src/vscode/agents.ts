/**
 * The agents offered by "Spawn coding agent": the offline demo profile (when `npm start` set one), the
 * engine's presets, agents installed from the ACP Registry (shown like presets, with "update available" when the
 * last registry listing has a newer version), then custom agents from `acpThreads.agents`, each with doctor's
 * verdict. An installed agent whose adapter is superseded (a renamed or deprecated package) comes last, marked:
 * the first startable agent is the default of a new thread and of the handoff picker, and it must be a current one.
 */
import type { DoctorEntry } from "../core/acp/runtime";
import type { AgentSpec } from "../core/model/agent";
import { currentFirst, type Deprecation } from "../core/registry/deprecated";
import { installedAgentSpec } from "../core/registry/installed-spec";
import type { InstalledAgent } from "../core/registry/types";
import type { Config } from "./config";
import { agentPresets, doctor } from "./engine";
import type { RegistryService } from "./registry/registry-service";

export interface AgentChoice {
  spec: AgentSpec;
  source: "demo" | "preset" | "installed" | "custom";
  /** Installed from the registry: its version, and the newer one the registry offers. */
  installed?: { version: string; update?: string };
  /** Installed from the registry, but its package is superseded (by the preset's). */
  deprecated?: Deprecation;
  doctor?: DoctorEntry;
}

/** The installed agents are the registry service's kept list (read off the extension host's thread). */
export async function configuredAgents(config: Config, registry?: RegistryService): Promise<AgentChoice[]> {
  const out: AgentChoice[] = [];
  const demo = config.demoProfile;
  if (demo)
    out.push({
      source: "demo",
      spec: { id: "demo", displayName: demo.label, command: demo.command, args: demo.args ?? [], env: demo.env },
    });
  const custom = config.customAgents;
  const customIds = new Set(custom.map((c) => c.id));
  // A custom entry overrides an installed agent or a preset of its id (like Zed's agent_servers); an agent
  // installed from the registry takes the place of the preset of its id, unless its adapter is superseded: then
  // the preset stays and the old install is not listed (one id, one entry).
  const installed = ((await registry?.installed()) ?? []).filter((a) => !customIds.has(a.id));
  const { current, superseded } = currentFirst(installed, registry?.last?.index);
  const installedIds = new Set(current.map((a) => a.id));
  const presets = agentPresets().filter((p) => !customIds.has(p.id) && !installedIds.has(p.id));
  const presetIds = new Set(presets.map((p) => p.id));
  const updates = await registry?.updates();
  for (const spec of presets) out.push({ source: "preset", spec });
  const choice = (a: InstalledAgent): AgentChoice => ({
    source: "installed",
    spec: installedAgentSpec(a),
    installed: { version: a.version, update: updates?.get(a.id)?.version },
  });
  for (const a of current) out.push(choice(a));
  for (const spec of custom) out.push({ source: "custom", spec });
  for (const { agent, deprecated } of superseded)
    if (!presetIds.has(agent.id)) out.push({ ...choice(agent), deprecated });
  return out;
}

/** The configured agent of id `id`, if any. */
export async function configuredAgent(
  config: Config,
  registry: RegistryService | undefined,
  id: string,
): Promise<AgentChoice | undefined> {
  return (await configuredAgents(config, registry)).find((a) => a.spec.id === id);
}

/** A scripted caller named an agent id that is not configured. */
export const notConfigured = (id: string): Error => new Error(`No agent "${id}" is configured.`);

/** The configured agent of id `id`; rejects with `notConfigured` when there is none. */
export async function requiredAgent(
  config: Config,
  registry: RegistryService | undefined,
  id: string,
): Promise<AgentChoice> {
  const agent = await configuredAgent(config, registry, id);
  if (!agent) throw notConfigured(id);
  return agent;
}

export async function agentsWithDoctor(
  config: Config,
  cwd: string,
  registry: RegistryService | undefined,
  opts: Parameters<typeof doctor>[2],
): Promise<AgentChoice[]> {
  const agents = await configuredAgents(config, registry);
  const entries = await doctor(
    agents.map((a) => a.spec),
    cwd,
    opts,
  ).catch(() => [] as DoctorEntry[]);
  return agents.map((a) => ({ ...a, doctor: entries.find((e) => e.id === a.spec.id) }));
}
