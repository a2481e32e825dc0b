/**
 * What the new-thread agent picker lists: the demo profile, presets and custom agents (`acpThreads.agents`),
 * then agent CLIs run in a terminal. `quickAgentOptions` answers first (is the command on PATH? asked of the shared
 * `PathAnswers`, off the host's thread); `agentOptionsWithVersions` adds doctor's versions when they are in.
 */
import { findPreset } from "../../core/acp/agent-presets";
import type { DoctorEntry } from "../../core/acp/runtime";
import type { Engine } from "../../core/engine/requests";
import { EXEC_PRESETS } from "../../core/exec";
import type { AgentOption } from "../../webview/thread/protocol";
import { agentsWithDoctor, configuredAgents, type AgentChoice } from "../agents";
import type { Config } from "../config";
import { PathAnswers, type DoctorAnswers } from "../engine";
import { EXEC_CHOICES } from "../exec-choices";
import type { RegistryService } from "../registry/registry-service";

/** Exec choices carry this prefix in their id so they never clash with an agent id. */
export const EXEC_PREFIX = "exec:";

function acpOption(a: AgentChoice, available: boolean, doctor?: DoctorEntry): AgentOption {
  const preset = findPreset(a.spec.id);
  const detail =
    a.source === "demo"
      ? "offline demo"
      : a.deprecated
        ? `${a.installed!.version} · ${a.deprecated.reason}: use ${a.deprecated.successor}`
        : a.source === "installed"
          ? `${a.installed!.version} · from the registry`
          : (doctor?.version ?? (a.source === "custom" ? "custom agent" : undefined));
  return {
    id: a.spec.id,
    label: a.spec.displayName,
    kind: "acp",
    available,
    ...(detail ? { detail } : {}),
    ...(a.installed?.update ? { update: a.installed.update } : {}),
    ...(!available
      ? { hint: doctor?.problem ?? (preset ? `install: ${preset.install}` : `'${a.spec.command}' not found`) }
      : {}),
  };
}

function execOptions(cwd: string, paths: PathAnswers): Promise<AgentOption[]> {
  const options = EXEC_CHOICES.map(async (c) => {
    const preset = EXEC_PRESETS.find((p) => p.id === c.id);
    const available = !preset || (await paths.find(preset.command, cwd)) !== null;
    return {
      id: `${EXEC_PREFIX}${c.id}`,
      label: c.label,
      kind: "exec" as const,
      available,
      detail: c.id === "custom" ? "a command line you type, run in a terminal" : "one run in a terminal",
      ...(!available && preset ? { hint: `'${preset.command}' not found` } : {}),
    };
  });
  return Promise.all(options);
}

/** `paths`: the window's shared answers (hub.pathAnswers); without them each command is looked up now. */
export async function quickAgentOptions(
  config: Config,
  cwd: string,
  registry?: RegistryService,
  paths = new PathAnswers(),
): Promise<AgentOption[]> {
  const acp = (await configuredAgents(config, registry)).map(async (a) =>
    acpOption(a, (await paths.find(a.spec.command, cwd, a.spec.env)) !== null),
  );
  return [...(await Promise.all(acp)), ...(await execOptions(cwd, paths))];
}

export async function agentOptionsWithVersions(
  engine: Engine,
  config: Config,
  cwd: string,
  registry?: RegistryService,
  kept?: DoctorAnswers,
  paths = new PathAnswers(),
): Promise<AgentOption[]> {
  const acp = (await agentsWithDoctor(config, cwd, registry, { engine, ...(kept ? { kept } : {}) })).map((a) =>
    acpOption(a, a.doctor?.available !== false, a.doctor),
  );
  return [...acp, ...(await execOptions(cwd, paths))];
}

/** The options with the newer versions of the last registry listing (read meanwhile). */
export async function withUpdates(agents: AgentOption[], registry: RegistryService): Promise<AgentOption[]> {
  const updates = await registry.updates();
  return agents.map((a) => (updates.has(a.id) ? { ...a, update: updates.get(a.id)!.version } : a));
}
