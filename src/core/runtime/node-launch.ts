/**
 * Where an agent spec becomes a Node launch. A command that is a Node script whose package asks for a Node the
 * default `node` is not (`engines.node`) is started as `<chosen node> <script> <args>` instead of through its
 * `.bin` shim (whose `#!/usr/bin/env node` would pick the default one and crash); when nothing fits, the agent
 * does not start and the error says what to install. Everything else (native binaries, scripts the default
 * node runs) starts unchanged. The script's and its package's files are read asynchronously (a session's start on the
 * extension host), and so is choosing a Node for a script that needs one (node-select.ts).
 */
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { dirname, isAbsolute } from "node:path";
import { AcpThreadsError } from "../errors";
import type { AgentSpec } from "../model/agent";
import { envGet } from "../platform/env";
import { HOST_PLATFORM, isWindows } from "../platform/host";
import { commandNodeInfo, firstLineOf } from "./node-package";
import {
  BadExplicitNode,
  chooseNode,
  type ChooseNodeOptions,
  isMissing,
  missingNodeMessage,
  type NodeRuntime,
} from "./node-select";

export interface NodeLaunch {
  /** The spec to spawn (the input spec when nothing changes). */
  spec: AgentSpec;
  /** The Node chosen for it, when the command is a Node script that needed one. */
  node?: NodeRuntime;
  /** One line for the protocol log when a Node was chosen ("runs with Node 24.11.1 (ACP_THREADS_NODE) …"). */
  note?: string;
}

export type NodeLaunchContext = ChooseNodeOptions;

/** An executable file with a `#!` line (POSIX): the kernel runs it through its shebang. */
async function directlyRunnable(script: string): Promise<boolean> {
  if (isWindows()) return false;
  try {
    await access(script, constants.X_OK);
    return (await firstLineOf(script)).startsWith("#!");
  } catch {
    return false;
  }
}

/** `PATH` with `dir` in front (the agent's own `node` children then get the same Node). */
function pathWith(env: NodeJS.ProcessEnv, dir: string): Record<string, string> {
  const key = isWindows() ? (Object.keys(env).find((k) => k.toUpperCase() === "PATH") ?? "Path") : "PATH";
  const old = envGet(env, "PATH", HOST_PLATFORM);
  return { [key]: old ? `${dir}${HOST_PLATFORM.path.delimiter}${old}` : dir };
}

/** The spec to spawn for `spec` (its command absolute already); throws `agent_not_found` when no Node fits. */
export async function nodeLaunch(spec: AgentSpec, ctx: NodeLaunchContext): Promise<NodeLaunch> {
  // a relative command is refused by spawn (see acp/spawn.ts): nothing to choose for it
  if (!isAbsolute(spec.command)) return { spec };
  const { script, pkg } = await commandNodeInfo(spec.command);
  if (!script) return { spec };
  const range = pkg?.enginesNode?.trim() || "*";
  // no requirement and a shebang to run it: as it always was (no `node --version` asked)
  if (range === "*" && (await directlyRunnable(script))) return { spec };
  const label = pkg?.name ? `${pkg.name}${pkg.version ? ` ${pkg.version}` : ""}` : spec.displayName;
  let node;
  try {
    node = await chooseNode(range, ctx);
  } catch (err) {
    if (!(err instanceof BadExplicitNode)) throw err;
    throw new AcpThreadsError("agent_not_found", `${spec.displayName}: ${err.message}`, {
      nodeRuntime: { range, source: err.source, path: err.path },
    });
  }
  if (isMissing(node)) {
    throw new AcpThreadsError("agent_not_found", missingNodeMessage(label, node), {
      nodeRuntime: { range, major: node.major, found: node.found },
    });
  }
  // the default node fits and the shim's shebang finds it: start it as it always was
  if (node.source === "path" && (await directlyRunnable(script))) return { spec };
  const env: Record<string, string> = { ...spec.env };
  if (node.electron) env.ELECTRON_RUN_AS_NODE = "1";
  else if (node.source !== "path") Object.assign(env, pathWith({ ...ctx.env, ...spec.env }, dirname(node.path)));
  const why = node.satisfies ? "" : ` (outside ${range}: used as configured)`;
  return {
    spec: { ...spec, command: node.path, args: [script, ...spec.args], env },
    node,
    note: `${label} runs with Node ${node.version} from ${node.source} (${node.path})${why}`,
  };
}
