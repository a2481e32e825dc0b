/**
 * The agents offered by "Spawn coding agent": the offline demo profile (when `npm start` set one), the
 * engine's presets, then custom agents from `acpThreads.agents`, each with doctor's verdict.
 */
import type { DoctorEntry } from "../core/acp/runtime";
import type { AgentSpec } from "../core/model/agent";
import type { Config } from "./config";
import { agentPresets, doctor } from "./engine";

export interface AgentChoice {
  spec: AgentSpec;
  source: "demo" | "preset" | "custom";
  doctor?: DoctorEntry;
}

export function configuredAgents(config: Config): AgentChoice[] {
  const out: AgentChoice[] = [];
  const demo = config.demoProfile;
  if (demo)
    out.push({
      source: "demo",
      spec: { id: "demo", displayName: demo.label, command: demo.command, args: demo.args ?? [], env: demo.env },
    });
  const custom = config.customAgents;
  const customIds = new Set(custom.map((c) => c.id));
  // A custom entry with a preset's id overrides the preset (like Zed's agent_servers).
  for (const spec of agentPresets()) if (!customIds.has(spec.id)) out.push({ source: "preset", spec });
  for (const spec of custom) out.push({ source: "custom", spec });
  return out;
}

export async function agentsWithDoctor(
  config: Config,
  cwd: string,
  opts?: Parameters<typeof doctor>[2],
): Promise<AgentChoice[]> {
  const agents = configuredAgents(config);
  const entries = await doctor(
    agents.map((a) => a.spec),
    cwd,
    opts,
  ).catch(() => [] as DoctorEntry[]);
  return agents.map((a) => ({ ...a, doctor: entries.find((e) => e.id === a.spec.id) }));
}
