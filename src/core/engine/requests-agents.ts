/**
 * The engine requests of the agents area (#35 item 7; joined into core/engine/requests.ts): what the front ends do
 * with agents that is not a live session. The managed Node runtimes (`acp-threads runtime`, the window's "Install
 * Node runtime"), doctor (which agents are installed, their versions, the Node they run on, their `initialize`), and
 * the one-shot requests to an agent that runs no session (logout, `session/delete`).
 *
 * Settings stay with the front end (VS Code configuration, the CLI's env) and come as plain data in the request:
 * the configured agents to check, the `acpThreads.nodePath` setting, the agent to start (as a session start names
 * it). A request never names a URL or a path to download: a runtime install names a Node version, which the engine
 * looks up on npm for its own platform package and checks before it keeps it; its folder is the data home's.
 * Replies carry no env values.
 */
import type { AuthStatus } from "../acp/auth-status";
import type { DoctorEntry } from "../acp/runtime";
import type { AgentSpec } from "../model/agent";

/**
 * Which Node runs a Node-script agent when its default `node` does not fit: `nodePath` (the editor's
 * `acpThreads.nodePath`; ACP_THREADS_NODE in the engine's env wins), and with `managedNodes` the data home's
 * managed runtimes.
 */
export interface AgentNodeChoice {
  nodePath?: string;
  managedNodes?: boolean;
}

/** A configured agent that is not a preset (a custom agent, the demo profile), for doctor to check as well. */
export interface DoctorAgent {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

/** A managed Node runtime in the data home. */
export interface ManagedNodeInfo {
  version: string;
  /** The `node` binary. */
  path: string;
  /** Its folder under the runtimes folder (what `runtime.remove` deletes). */
  dir: string;
}

export type AgentsRequest =
  /** The managed Node runtimes of the data home, newest first, and their folder. */
  | { op: "runtime.list" }
  /**
   * Installs the newest Node release matching `spec` (`22`, `22.11.0`, a range; default: the newest) from npm's
   * `node-<os>-<arch>` package into the data home, or finds it installed. Progress: steps (`{t: "step"}`). The
   * request's signal stops the install while it runs (nothing is kept).
   */
  | { op: "runtime.install"; spec?: string }
  /** Deletes the managed Node `version` (one `runtime.list` lists; `removed: false` when there is none). */
  | { op: "runtime.remove"; version: string }
  /**
   * Doctor over the presets and `custom` (by id): found where, which version (`--version` for `timeoutMs`), which
   * Node runs it (`nodePath`: the editor's `acpThreads.nodePath`; `managedNodes`: the data home's managed Nodes are
   * looked at too), and with `probe` what `initialize` advertises.
   */
  | ({
      op: "agents.doctor";
      cwd: string;
      custom?: Record<string, DoctorAgent>;
      probe?: boolean;
      probeTimeoutMs?: number;
      timeoutMs?: number;
    } & AgentNodeChoice)
  /**
   * Starts the agent `spec` (its command as the caller resolved it) in `cwd` for ACP `logout` (when it advertises
   * `agentCapabilities.auth.logout`; else its error), replies with the login state it reports after, and stops it.
   */
  | ({ op: "agents.logout"; spec: AgentSpec; cwd: string } & AgentNodeChoice)
  /** Starts the agent `spec` in `cwd` for `session/delete` of its session `sessionId`, and stops it. */
  | ({ op: "agents.deleteSession"; spec: AgentSpec; sessionId: string; cwd: string } & AgentNodeChoice);

export interface AgentsReplies {
  "runtime.list": { dir: string; nodes: ManagedNodeInfo[] };
  "runtime.install": ManagedNodeInfo;
  "runtime.remove": { dir: string; removed: boolean };
  "agents.doctor": DoctorEntry[];
  "agents.logout": { authStatus?: AuthStatus };
  "agents.deleteSession": Record<string, never>;
}
