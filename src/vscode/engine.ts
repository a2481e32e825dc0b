/**
 * The one place the extension reaches into the engine (src/core/acp) for agents: the runtime factory
 * (commands resolved to absolute paths first, protocol traffic mirrored to the output channel), the
 * preset list, doctor and which agent commands are on PATH.
 */
import { join } from "node:path";
import { createAgentRuntime } from "../core/acp/agent-runtime";
import { guardAgainstParentDeath } from "../core/acp/parent-guard";
import type { AcpAgentRuntime } from "../core/acp/agent-runtime";
import { AGENT_PRESETS, findPreset, resolveCommandAsync } from "../core/acp/agent-registry";
import { ProtocolLog, type ProtocolLogEntry } from "../core/acp/protocol-log";
import type { DoctorEntry, RuntimeOptions } from "../core/acp/runtime";
import type { Engine } from "../core/engine/requests";
import { AcpThreadsError } from "../core/errors";
import type { Logger } from "../core/log";
import type { AgentSpec } from "../core/model/agent";
import { isPosix } from "../core/platform/host";
import { directLauncher, setTerminalLauncher, type Launcher } from "../core/platform/launcher";
import { setPtySpawner } from "../core/platform/pty";
import { setCommandRunner } from "../core/platform/run-to-end";
import { SpawnerLauncher } from "../core/platform/spawner-client";
import type { NodeRuntimeOptions } from "../core/runtime/node-select";
import { recentResults, type Recent } from "../core/util/recent";

/**
 * The absolute path the agent's command runs, or null (not found), looked up off the extension host's thread: with
 * the environment `createRuntime` resolves it with (this process's, the agent's `env`, the runtime options' `env`).
 */
export function resolveAgentCommand(
  agent: Pick<AgentSpec, "command" | "env">,
  cwd: string,
  env?: Record<string, string>,
): Promise<string | null> {
  return resolveCommandAsync(agent.command, cwd, { ...process.env, ...agent.env, ...env });
}

/**
 * `node`: where Node-script agents find a Node their `engines` accept (setting, managed runtimes). `command`: the
 * agent's command as `resolveAgentCommand` found it, off the host's thread (null: not found). `onStartFailed`: told
 * when the agent could not start (engine-api.ts).
 */
export function createRuntime(
  opts: RuntimeOptions,
  protocolSink: ((entry: ProtocolLogEntry) => void) | undefined,
  node: NodeRuntimeOptions | undefined,
  launcher: Launcher | undefined,
  command: string | null,
  onStartFailed?: (err: unknown) => void,
): AcpAgentRuntime {
  if (!command) {
    const install = findPreset(opts.agent.id)?.install;
    throw new AcpThreadsError(
      "agent_not_found",
      `${opts.agent.displayName}: "${opts.agent.command}" was not found on PATH.${install ? ` Install it: ${install}` : ""}`,
    );
  }
  const protocolLog = new ProtocolLog();
  if (protocolSink) protocolLog.onLine(protocolSink);
  return createAgentRuntime(
    { ...opts, agent: { ...opts.agent, command } },
    { protocolLog, node, launcher, onStartFailed },
  );
}

/**
 * Who forks agents for the extension host: the spawner (dist/spawner.js, #24) on POSIX, so a fork does not copy
 * the large host on its thread; the direct path on Windows and with ACP_THREADS_SPAWNER=0.
 */
export function hostLauncher(extensionPath: string, logger: Logger): Launcher & { dispose(): void } {
  if (!isPosix() || process.env.ACP_THREADS_SPAWNER === "0") return { ...directLauncher, dispose() {} };
  const spawner = new SpawnerLauncher({
    script: join(extensionPath, "dist", "spawner.js"),
    logger,
    guard: (pid) => guardAgainstParentDeath(pid),
  });
  const restoreRunner = setCommandRunner((req) => spawner.run(req));
  const restoreTerminals = setTerminalLauncher(spawner);
  const restorePty = setPtySpawner((...a) => spawner.spawnPty(...a));
  return {
    launch: (spec) => spawner.launch(spec),
    dispose() {
      restorePty();
      restoreTerminals();
      restoreRunner();
      spawner.dispose();
    },
  };
}

export function agentPresets(): AgentSpec[] {
  return AGENT_PRESETS.map((p) => ({ id: p.id, displayName: p.displayName, command: p.command, args: [...p.args] }));
}

/**
 * Doctor's answers (without probes) kept for a short while (hub.ts owns them): every open new-thread panel asks
 * for them when it opens and on each settings change, and each answer starts every agent's `--version` (one
 * process per agent, a whole Node program for most). A burst of asks shares one run.
 */
export const DOCTOR_KEPT_MS = 20_000;
export type DoctorAnswers = Recent<DoctorEntry[]>;

export function newDoctorAnswers(): DoctorAnswers {
  return recentResults<DoctorEntry[]>({ ttlMs: DOCTOR_KEPT_MS, now: Date.now });
}

/**
 * Which agent and exec commands are on PATH, as the new-thread panels and the handoff picker show it (hub.ts owns
 * the answers): looked up off the extension host's thread and kept for a short while like doctor's answers. Every
 * open new-thread panel asks for every configured agent when it opens and on each settings change: N open panels
 * and a change cost one lookup per command, not N synchronous PATH scans on the host's thread.
 */
export class PathAnswers {
  readonly #kept = recentResults<string | null>({ ttlMs: DOCTOR_KEPT_MS, maxKeys: 64, now: Date.now });
  /** Told of each lookup that runs (not of an answer shared or kept): the host suite counts them. */
  onLookup?: (command: string) => void;

  /**
   * The absolute path `command` runs, or null: on the PATH (PATHEXT on Windows) of this process's environment with
   * `agentEnv` (an agent's own `env`) over it, or relative to `cwd`. The environment is copied only when a lookup
   * runs: copying `process.env` for every agent of every panel on each ask cost more than the kept answer saved.
   */
  find(command: string, cwd: string, agentEnv?: Record<string, string>): Promise<string | null> {
    const own = Object.entries(agentEnv ?? {}).filter(([name]) => /^path(ext)?$/i.test(name));
    const key = JSON.stringify([command, cwd, process.env.PATH, process.env.PATHEXT, own]);
    return this.#kept.get(key, () => {
      this.onLookup?.(command);
      return resolveCommandAsync(command, cwd, { ...process.env, ...agentEnv });
    });
  }

  /** Forget every answer (an agent was installed, updated or removed). */
  clear(): void {
    this.#kept.clear();
  }
}

/**
 * Doctor for presets plus the given non-preset specs (custom agents, the demo profile); probes only when asked.
 * `kept`: answers of the last few seconds may do (a new-thread panel's list), never for a probe (the Doctor command:
 * a person asked now). Asked of the engine (`agents.doctor`); `node`: the setting and the managed runtimes when given.
 */
export async function doctor(
  specs: AgentSpec[],
  cwd: string,
  opts: { engine: Engine; probe?: boolean; node?: NodeRuntimeOptions; kept?: DoctorAnswers },
): Promise<DoctorEntry[]> {
  const custom = Object.fromEntries(
    specs.filter((s) => !findPreset(s.id)).map((s) => [s.id, { command: s.command, args: s.args, env: s.env }]),
  );
  const { kept, engine, ...asked } = opts;
  const run = () =>
    engine.call({
      op: "agents.doctor",
      cwd,
      custom,
      timeoutMs: 3000,
      ...(asked.probe !== undefined ? { probe: asked.probe } : {}),
      ...(asked.node?.nodePath !== undefined ? { nodePath: asked.node.nodePath } : {}),
      ...(asked.node?.runtimesDir ? { managedNodes: true } : {}),
    });
  const entries = await (kept && !asked.probe
    ? kept.get(JSON.stringify({ cwd, custom, node: asked.node }), run)
    : run());
  return specs.map(
    (s) =>
      entries.find((e) => e.id === s.id) ?? {
        id: s.id,
        displayName: s.displayName,
        command: s.command,
        resolvedPath: null,
        available: false,
        version: null,
        problem: "not checked",
      },
  );
}
