/**
 * `doctor`: which presets (and custom agents) are installed, where, which version, which Node runs them, and
 * (unless `probe: false`) what each advertises in `initialize` (probes run in parallel, each with a timeout).
 */
import { spawn } from "node:child_process";
import { basename, resolve } from "node:path";
import { errorMessage } from "../errors";
import { mergeEnv } from "../platform/env";
import { HOST_PLATFORM } from "../platform/host";
import { launchProgram } from "../platform/shell";
import { nodeLaunch } from "../runtime/node-launch";
import { packageVersionOf } from "../runtime/node-package";
import type { NodeRuntimeOptions } from "../runtime/node-select";
import { probeAgent } from "./agent-probe";
import { AGENT_PRESETS, resolveCommandAsync, type CustomAgentConfig } from "./agent-registry";
import type { DoctorEntry } from "./runtime";

export { packageVersionOf };

export const VERSION_TIMEOUT_MS = 5_000;

export interface DoctorOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  custom?: Record<string, CustomAgentConfig>;
  timeoutMs?: number;
  /** Also run the `initialize` probe (default false: spawning every agent is not cheap). */
  probe?: boolean;
  probeTimeoutMs?: number;
  node?: NodeRuntimeOptions;
}

/**
 * The first version number (`1.2`, `1.2.3`, `1.2.3-beta.1`) in the output, else null: an agent that does not
 * know `--version` prints an error or its usage, and that is no version.
 */
export function parseVersion(output: string): string | null {
  return output.match(/\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?/)?.[0] ?? null;
}

/**
 * The version of the npm package an agent's command comes from, for adapters whose `--version` says nothing. A
 * command that is an interpreter (`node agent.js`) names the script's package; Node's own package (a Node
 * installed from npm has one) is never the agent's version.
 */
async function agentPackageVersion(resolvedPath: string, args: readonly string[], cwd: string): Promise<string | null> {
  const script = args[0] !== undefined && SCRIPT_FILE.test(args[0]) ? resolve(cwd, args[0]) : undefined;
  if (script) return packageVersionOf(script);
  return RUNTIME_BINARY.test(basename(resolvedPath)) ? null : packageVersionOf(resolvedPath);
}
const SCRIPT_FILE = /\.(?:[cm]?js|[cm]?ts)$/i;
const RUNTIME_BINARY = /^(?:node|nodejs|bun|deno)(?:\.exe)?$/i;

/** Runs `path args` with stdin closed (ACP servers that ignore the flag then exit on EOF) and a hard timeout. */
function runVersion(path: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    let out = "";
    // Windows: an npm `.cmd` shim cannot be spawned directly (platform/shell.ts).
    const launch = launchProgram(path, args, { env });
    const child = spawn(launch.file, launch.args, {
      env,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: timeoutMs,
      killSignal: "SIGKILL",
      windowsHide: true,
      windowsVerbatimArguments: launch.verbatim,
    });
    const collect = (d: Buffer) => {
      if (out.length < 64 * 1024) out += d.toString("utf8");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.once("error", () => resolve(null));
    // A failing `--version` (unknown flag) says nothing about the version, whatever it printed.
    child.once("close", (code) => resolve(code === 0 ? parseVersion(out) : null));
  });
}

export async function doctor(opts: DoctorOptions): Promise<DoctorEntry[]> {
  const env = opts.env ?? process.env;
  const timeout = opts.timeoutMs ?? VERSION_TIMEOUT_MS;
  const entries = [
    ...AGENT_PRESETS.map((p) => ({
      id: p.id,
      displayName: p.displayName,
      command: p.command,
      args: p.args,
      env: undefined as Record<string, string> | undefined,
      versionArgs: p.versionArgs,
      install: p.install,
    })),
    ...Object.entries(opts.custom ?? {}).map(([id, c]) => ({
      id,
      displayName: id,
      command: c.command,
      args: c.args ?? [],
      env: c.env,
      // `node agent.js --version` asks the agent, not node
      versionArgs: [...(c.args ?? []), "--version"],
      install: null,
    })),
  ];
  return await Promise.all(
    entries.map(async (e): Promise<DoctorEntry> => {
      const resolvedPath = await resolveCommandAsync(e.command, opts.cwd, env);
      if (!resolvedPath) {
        return {
          id: e.id,
          displayName: e.displayName,
          command: e.command,
          resolvedPath: null,
          available: false,
          version: null,
          problem: `'${e.command}' not found on PATH${e.install ? `; install: ${e.install}` : ""}`,
        };
      }
      const spec = { id: e.id, displayName: e.displayName, command: resolvedPath, args: e.args, env: e.env };
      let version: string | null = null;
      let problem: string | null = null;
      let node: DoctorEntry["node"];
      try {
        const launch = await nodeLaunch(spec, {
          ...opts.node,
          cwd: opts.cwd,
          env: mergeEnv(HOST_PLATFORM, env, e.env),
        });
        if (launch.node) node = { version: launch.node.version, source: launch.node.source, path: launch.node.path };
      } catch (err) {
        problem = errorMessage(err);
      }
      const probing =
        !opts.probe || problem
          ? undefined
          : probeAgent(spec, { cwd: opts.cwd, env, node: opts.node, timeoutMs: opts.probeTimeoutMs });
      try {
        version = e.versionArgs ? await runVersion(resolvedPath, e.versionArgs, env, timeout) : null;
      } catch (err) {
        problem ??= errorMessage(err);
      }
      const probe = await probing;
      // `--version` could not tell: the agent's own word in `initialize`, else the package its command comes from
      version ??= probe?.agentInfo?.version ?? (await agentPackageVersion(resolvedPath, e.args, opts.cwd));
      return {
        id: e.id,
        displayName: e.displayName,
        command: e.command,
        resolvedPath,
        available: true,
        version,
        problem,
        ...(node ? { node } : {}),
        ...(probe ? { probe } : {}),
      };
    }),
  );
}
