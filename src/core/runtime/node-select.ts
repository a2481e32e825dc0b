/**
 * Which Node runs a Node-script agent whose package.json `engines.node` asks for a version, in this order:
 *   1. the default `node` on the agent's PATH, when it satisfies the range;
 *   2. an explicit Node: env `ACP_THREADS_NODE`, else the editor setting `acpThreads.nodePath`. An explicit
 *      Node is the user's override: it is used even when its version is outside the range (the choice says so);
 *   3. the host's own runtime (the CLI's node, the extension host's node, or VS Code's Electron run as Node with
 *      `ELECTRON_RUN_AS_NODE=1`), when it satisfies;
 *   4. the newest managed Node in `<data home>/runtimes/` (`acp-threads runtime install`) that satisfies;
 * else `NodeMissing`, which says exactly what to install.
 */
import { envGet } from "../platform/env";
import { findExecutableAsync } from "../platform/executables";
import { HOST_PLATFORM } from "../platform/host";
import { listManagedNodes } from "./managed";
import { nodeVersionOf } from "./node-version";
import { suggestMajor, satisfies } from "./semver";

export const NODE_ENV_VAR = "ACP_THREADS_NODE";
export const NODE_PATH_SETTING = "acpThreads.nodePath";

/** How the host tells the engine about Node runtimes (the CLI and the extension fill it in). */
export interface NodeRuntimeOptions {
  /** The editor setting `acpThreads.nodePath` (ACP_THREADS_NODE in the agent's env wins over it). */
  nodePath?: string;
  /** `<data home>/runtimes`, where `acp-threads runtime install` puts managed Nodes; none = not looked at. */
  runtimesDir?: string;
}

export type NodeSource = "path" | "ACP_THREADS_NODE" | "acpThreads.nodePath" | "host" | "managed";

export interface NodeRuntime {
  /** Absolute path of the binary. */
  path: string;
  /** `22.11.0`, no `v`. */
  version: string;
  source: NodeSource;
  /** An Electron binary: run it with `ELECTRON_RUN_AS_NODE=1`. */
  electron: boolean;
  /** False only for an explicit Node outside the range (used as configured). */
  satisfies: boolean;
}

export interface NodeMissing {
  range: string;
  /** The default node, if there is one. */
  found: { path: string; version: string | null } | null;
  /** The lowest major the range lets in (for `runtime install MAJOR`), and whether newer ones do too. */
  major: number | null;
  open: boolean;
}

export interface HostRuntime {
  execPath: string;
  node: string;
  electron?: string;
}

export interface ChooseNodeOptions extends NodeRuntimeOptions {
  /** The agent's environment (base env + spec env + run env): PATH and ACP_THREADS_NODE come from it. */
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The process's own runtime (tests inject one). */
  host?: HostRuntime;
}

export function hostRuntime(): HostRuntime {
  return { execPath: process.execPath, node: process.versions.node, electron: process.versions.electron };
}

const fits = (version: string, range: string) => satisfies(version, range) !== false;

/** The default `node` on the PATH of `env` and its version (null when none or it does not run). */
export async function defaultNode(
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ path: string; version: string | null } | null> {
  const path = await findExecutableAsync("node", { cwd, env });
  return path ? { path, version: await nodeVersionOf(path) } : null;
}

/** Thrown (as a plain Error) when an explicit Node is set but does not run. */
export class BadExplicitNode extends Error {
  constructor(
    readonly source: NodeSource,
    readonly path: string,
  ) {
    super(`${source} is set to '${path}', which does not run as Node (\`${path} --version\` failed)`);
  }
}

/** The Node for `range` (see the top of this file), looked up off the caller's thread. */
export async function chooseNode(range: string, opts: ChooseNodeOptions): Promise<NodeRuntime | NodeMissing> {
  const found = await defaultNode(opts.env, opts.cwd);
  if (found?.version && fits(found.version, range)) {
    return { path: found.path, version: found.version, source: "path", electron: false, satisfies: true };
  }
  const fromEnv = envGet(opts.env, NODE_ENV_VAR, HOST_PLATFORM)?.trim();
  const explicit: [NodeSource, string] | null = fromEnv
    ? ["ACP_THREADS_NODE", fromEnv]
    : opts.nodePath?.trim()
      ? ["acpThreads.nodePath", opts.nodePath.trim()]
      : null;
  if (explicit) {
    const [source, given] = explicit;
    const path = await findExecutableAsync(given, { cwd: opts.cwd, env: opts.env });
    const version = path ? await nodeVersionOf(path) : null;
    if (!path || !version) throw new BadExplicitNode(source, given);
    return { path, version, source, electron: false, satisfies: fits(version, range) };
  }
  const host = opts.host ?? hostRuntime();
  if (fits(host.node, range)) {
    return { path: host.execPath, version: host.node, source: "host", electron: !!host.electron, satisfies: true };
  }
  if (opts.runtimesDir) {
    const managed = (await listManagedNodes(opts.runtimesDir)).find((m) => fits(m.version, range));
    if (managed)
      return { path: managed.path, version: managed.version, source: "managed", electron: false, satisfies: true };
  }
  const low = suggestMajor(range);
  return { range, found, major: low?.major ?? null, open: low?.open ?? false };
}

export function isMissing(choice: NodeRuntime | NodeMissing): choice is NodeMissing {
  return "range" in choice;
}

/**
 * The message for a Node-script agent nothing can run: "<agent> <version> needs Node >=22 (its package.json
 * engines); found v20.20.2 at /usr/bin/node. Install Node 22 or newer, set acpThreads.nodePath /
 * ACP_THREADS_NODE, or run `acp-threads runtime install 22`".
 */
export function missingNodeMessage(agent: string, m: NodeMissing): string {
  const found = m.found
    ? `found ${m.found.version ? `v${m.found.version}` : "a node that does not run"} at ${m.found.path}`
    : "found no node on PATH";
  const what =
    m.major === null ? `a Node that satisfies '${m.range}'` : m.open ? `Node ${m.major} or newer` : `Node ${m.major}`;
  const set = `set ${NODE_PATH_SETTING} / ${NODE_ENV_VAR}`;
  const rest = m.major === null ? `or ${set}` : `${set}, or run \`acp-threads runtime install ${m.major}\``;
  return `${agent} needs Node ${m.range} (its package.json engines); ${found}. Install ${what}, ${rest}`;
}
