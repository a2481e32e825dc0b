/**
 * What the engine keeps per ACP session, and the context every client-side handler gets. Handlers
 * (fs, terminal, permission) only see `EngineContext`, never the runtime class, so each can be tested alone.
 */
import type { PermissionPolicy } from "../model/agent";
import type { RuntimeEvent } from "../model/events";
import type { Logger } from "../log";
import type { ElicitationAsker } from "../model/elicitation";
import type { PermissionAsker, TerminalHost, WorkspaceFiles } from "../ports";
import { LastReadCache } from "./last-read";
import type { AuthStatus } from "./auth-status";
import { ToolCallTracker } from "./normalize";
import type { PathGuard } from "./path-guard";
import type { FileWrite } from "./runtime";
import type { PermissionStore } from "./permission-store";
import type { SandboxPlan } from "../sandbox/plan";

export class SessionState {
  readonly tools = new ToolCallTracker();
  /** Receives events while a turn (or a load replay) is collecting them. */
  sink: ((event: RuntimeEvent) => void) | undefined;
  /** Aborted by `cancel`: pending permission prompts stop and answer `cancelled`. */
  turnAbort = new AbortController();
  /**
   * Aborted by `cancel` (Stop): our own requests still waiting on the agent for this session (set_mode,
   * set_config_option) get a `$/cancel_request` and reject as cancelled. Renewed after each cancel.
   */
  requests = new AbortController();
  /** Paths of edits approved through `session/request_permission` in the current turn. */
  readonly approvedEdits = new Set<string>();
  /** Paths of reads approved through `session/request_permission` in the current turn. */
  readonly approvedReads = new Set<string>();
  /** Command lines (and `key:<program subcommand>`) of `execute` requests approved in the current turn. */
  readonly approvedCommands = new Set<string>();
  /** Full text the agent last read per path (passed to `WorkspaceFiles.writeText`); bounded, see last-read.ts. */
  readonly lastRead = new LastReadCache();

  constructor(
    readonly sessionId: string,
    readonly cwd: string,
  ) {}

  get cancelling(): boolean {
    return this.turnAbort.signal.aborted;
  }

  /** Resets per-turn state at the start of a turn. */
  beginTurn(sink: (event: RuntimeEvent) => void): void {
    this.sink = sink;
    this.turnAbort = new AbortController();
    this.approvedEdits.clear();
    this.approvedReads.clear();
    this.approvedCommands.clear();
  }
}

export interface EngineContext {
  readonly agentId: string;
  readonly policy: PermissionPolicy;
  /** False only when replaying a recording (see EngineOptions.gateEffects). */
  readonly gateEffects?: boolean;
  /** The workspace folder remembered rules are scoped to (the session cwd). */
  readonly workspace: string;
  readonly store: PermissionStore;
  readonly asker: PermissionAsker | undefined;
  /** Answers `elicitation/create`; none: elicitation is not advertised and any request is declined. */
  readonly elicitor?: ElicitationAsker;
  readonly files: WorkspaceFiles;
  readonly guard: PathGuard;
  readonly terminalHost: TerminalHost | undefined;
  readonly logger: Logger;
  /** Env for terminals the agent starts (process env + run env; never the agent's own secrets). */
  readonly terminalEnv: NodeJS.ProcessEnv;
  /** The session's OS sandbox: terminals the agent asks for run inside it too. */
  readonly sandbox?: SandboxPlan;
  /** The session, created on first use for an id we did not open (agents may be ahead of us). */
  session(sessionId: string): SessionState;
  /** Emits an event for a session, in order with its `session/update`s. */
  emit(sessionId: string, event: RuntimeEvent): void;
  /** Reports a write served through `fs/write_text_file` (runtime `onFileWrite`). */
  fileWritten?(write: FileWrite): void;
  /** The agent reported its login state (`_auth/status_update`). */
  authStatusChanged?(status: AuthStatus): void;
  /** Marks the runtime as waiting for a person (true) or back to work (false). */
  waitingForPermission(waiting: boolean): void;
}
