/**
 * The engine's public runtime API on top of `AgentRuntime` (runtime.ts): what `createAgentRuntime` returns
 * and the engine-only options. Hosts code against these names.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { Disposable } from "../lifecycle";
import type { Launcher } from "../platform/launcher";
import type { NodeRuntimeOptions } from "../runtime/node-select";
import type { RuntimeEvent } from "../model/events";
import type { AuthStatus } from "./auth-status";
import type { PermissionStore } from "./permission-store";
import type { ProtocolLog } from "./protocol-log";
import type { AgentCapabilitiesView, AgentRuntime, RuntimeStatus, SessionRequest } from "./runtime";
import type { OpenedSession } from "./session-open";
import type { AgentTransport } from "./transport";

export interface EngineOptions {
  /** How to reach the agent; default: spawn `agent.command` (must be absolute: see agent-registry). */
  transport?: AgentTransport;
  /** Auth method to prefer when the agent asks to authenticate. */
  authMethodId?: string;
  maxMessageBytes?: number;
  protocolLog?: ProtocolLog;
  /** Serve `terminal/*` with plain child processes even where node-pty loads. */
  noPty?: boolean;
  /** Base environment for the agent and its terminals (default `process.env`). */
  baseEnv?: NodeJS.ProcessEnv;
  /** Where Node-script agents find a Node their `engines` accept (editor setting, managed runtimes). */
  node?: NodeRuntimeOptions;
  /** Who forks the agent (default: this process); the extension host passes its spawner (platform/spawner-client.ts). */
  launcher?: Launcher;
  /** Told when the agent could not start (no Node fits its `engines`: the window offers to install one). */
  onStartFailed?: (err: unknown) => void;
  /**
   * Gate client-side effects the agent did not ask about (effect-gate.ts). Default true; false only for
   * `acp-threads replay`, whose recording already holds what the client decided for every effect.
   */
  gateEffects?: boolean;
}

export interface SessionEvent {
  sessionId: string;
  event: RuntimeEvent;
}

export interface AcpAgentRuntime extends AgentRuntime {
  /** The agent's pid once started (undefined for in-process agents). */
  readonly pid: number | undefined;
  readonly protocolLog: ProtocolLog;
  readonly permissions: PermissionStore;
  /** The login state the agent last reported (`_auth/status_update`), if it reports one. */
  authStatus(): AuthStatus | undefined;
  /** Fires when the agent reports a (new) login state. */
  readonly onAuthStatus: (listener: (status: AuthStatus) => void) => Disposable;
  /** `authenticate` with the agent's advertised auth method (the flow `auth_required` runs). */
  login(): Promise<void>;
  readonly onStatus: (listener: (status: RuntimeStatus) => void) => Disposable;
  /** Every event of every session: turns, load replays and updates that arrive outside a turn. */
  readonly onEvent: (listener: (e: SessionEvent) => void) => Disposable;
  /** Spawns and initializes the agent (done by `ensureSession` when not called first). */
  start(): Promise<AgentCapabilitiesView>;
  ensureSession(req?: SessionRequest): Promise<OpenedSession>;
  listSessions(cwd?: string): Promise<acp.SessionInfo[]>;
  /** `session/load` only, never a resume or a new session in its place (importing the agent's sessions). */
  loadSession(sessionId: string): Promise<OpenedSession>;
  extRequest<T>(method: string, params: Record<string, unknown>): Promise<T>;
  closeSession(sessionId: string): Promise<void>;
  /**
   * Logs the agent out (`logout`, when it advertises `agentCapabilities.auth.logout`); an agent that does not
   * offer it gets a clear `protocol` error and nothing is sent.
   */
  logout(): Promise<void>;
  /** `session/delete` (when the agent advertises `sessionCapabilities.delete`; otherwise an error). */
  deleteSession(sessionId: string): Promise<void>;
  /** Output of a terminal this runtime served, also after release (for rendering tool calls). */
  terminalOutput(terminalId: string): { output: string; truncated: boolean } | undefined;
  /** Terminals still held and the bytes of their buffers (bounded over a long session). */
  terminalsRetained(): { terminals: number; bytes: number };
}
