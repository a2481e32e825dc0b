/**
 * The `AgentRuntime` boundary (after OpenClaw's design): everything above it (CLI, thread recorder,
 * extension) talks to agents only through this interface.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { Disposable } from "../lifecycle";
import type { Logger } from "../log";
import type { AgentSpec, PermissionPolicy } from "../model/agent";
import type { RuntimeEvent } from "../model/events";
import type { ElicitationAsker } from "../model/elicitation";
import type { PermissionAsker, TerminalHost, WorkspaceFiles } from "../ports";
import type { SandboxPlan } from "../sandbox/plan";

export interface RuntimeOptions {
  agent: AgentSpec;
  /** Session working directory (absolute). Also the first workspace root. */
  cwd: string;
  /** Roots the agent may read/write; defaults to `[cwd]`. */
  workspaceRoots?: string[];
  /** Extra roots passed as `additionalDirectories` when the agent supports them. */
  additionalDirectories?: string[];
  permissionPolicy?: PermissionPolicy;
  /** Where remembered allow_always decisions and the audit log live; none = in memory only. */
  permissionStoreDir?: string;
  files?: WorkspaceFiles;
  asker?: PermissionAsker;
  /** Answers the agent's `elicitation/create` (forms, URLs); without it elicitation is not advertised. */
  elicitor?: ElicitationAsker;
  terminalHost?: TerminalHost;
  mcpServers?: acp.McpServer[];
  logger?: Logger;
  /** Extra env for this run on top of the agent spec's env. */
  env?: Record<string, string>;
  /** Run the agent and the terminals it asks for inside this OS sandbox (sandbox/plan.ts); none = unsandboxed. */
  sandbox?: SandboxPlan;
}

export interface SessionRequest {
  /** Load (or resume) this agent session id instead of creating a new one. */
  resumeSessionId?: string;
}

export interface SessionInfo {
  sessionId: string;
  /** How the session was obtained. */
  origin: "new" | "load" | "resume";
  modes?: acp.SessionModeState | null;
  configOptions?: acp.SessionConfigOption[] | null;
  /**
   * Set when the session was switched out of an agent mode that approves on its own (claude-agent-acp "Auto",
   * codex-acp "Auto review") into its ask-before-acting mode, because the permission policy asks or denies.
   * `error`: the agent refused the switch, so its own mode still decides.
   */
  policyMode?: {
    policy: string;
    from: { id: string; name: string };
    to: { id: string; name: string };
    error?: string;
  };
}

export type RuntimeStatus = "starting" | "idle" | "working" | "waiting_permission" | "closed" | "failed";

export interface AgentCapabilitiesView {
  protocolVersion: number;
  agentInfo?: acp.Implementation | null;
  agentCapabilities: acp.AgentCapabilities;
  authMethods: acp.AuthMethod[];
  /** The `initialize` answer's top-level `_meta` (`steering.supported`, …). */
  meta?: Record<string, unknown> | null;
}

export interface DoctorEntry {
  id: string;
  displayName: string;
  command: string;
  resolvedPath: string | null;
  available: boolean;
  version: string | null;
  /** Why it is missing / what to install. */
  problem: string | null;
  /** The Node a Node-script agent runs with when it is not the default `node` (runtime/node-launch.ts). */
  node?: { version: string; source: string; path: string };
  /** What the agent's `initialize` answer advertised (absent with `--no-probe` or when it is missing). */
  probe?: AgentProbe;
}

/** An `initialize` probe: spawn, initialize with our client capabilities, kill the process group. */
export interface AgentProbe {
  ok: boolean;
  /** Why the probe failed (the agent still counts as installed). */
  error?: string;
  protocolVersion?: number;
  agentInfo?: { name: string; title?: string; version: string };
  loadSession?: boolean;
  /** Keys of `sessionCapabilities` that are set (`list`, `resume`, `fork`, `close`, `delete`…). */
  sessionCapabilities?: string[];
  /** `promptCapabilities` that are true (`image`, `audio`, `embeddedContext`). */
  promptCapabilities?: string[];
  /** `mcpCapabilities` that are true (`http`, `sse`). */
  mcpCapabilities?: string[];
  authMethods?: { id: string; name: string; kind: "agent" | "terminal" | "env_var"; vars?: string[] }[];
  /** The login state the agent reported (`_auth/status_update`, codex-acp 2.6), when it did. */
  authStatus?: { kind: string; label?: string };
  elapsedMs: number;
}

/** A file the agent wrote through `fs/write_text_file` (the edit ledger records it; conflict radar reads it). */
export interface FileWrite {
  sessionId: string;
  /** Absolute, symlink-resolved path. */
  path: string;
  /** The text before the write (open editor buffer or disk); null when the file did not exist. */
  before: string | null;
  after: string;
  /** What the agent last read of this file through `fs/read_text_file`, if it did. */
  lastRead?: string;
}

export interface AgentRuntime {
  ensureSession(req?: SessionRequest): Promise<SessionInfo>;
  /** One prompt turn; yields normalized events and always ends with `done` or `error`. */
  runTurn(
    sessionId: string,
    prompt: acp.ContentBlock[] | string,
    opts?: { signal?: AbortSignal },
  ): AsyncIterable<RuntimeEvent>;
  cancel(sessionId: string): Promise<void>;
  close(): Promise<void>;
  getCapabilities(): AgentCapabilitiesView | undefined;
  getStatus(): RuntimeStatus;
  setMode(sessionId: string, modeId: string): Promise<void>;
  setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<acp.SessionConfigOption[]>;
  /** Writes served through `fs/write_text_file`, in order (runtimes that serve no fs methods leave it out). */
  onFileWrite?(listener: (write: FileWrite) => void): Disposable;
  /** A request by method name (`_session/steering`, `session/fork`) for the feature modules that wrap one. */
  extRequest?<T>(method: string, params: Record<string, unknown>): Promise<T>;
  /** The folders its path guard lets the agent read and write (absolute): the thread records them (#35). */
  readonly roots?: readonly string[];
}
