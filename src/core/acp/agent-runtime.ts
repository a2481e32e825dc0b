/**
 * `createAgentRuntime`: one agent process (or in-process app), its ACP connection, and every session on it.
 * See runtime.ts for the interface; this adds the pid, status and event subscriptions, the protocol log and
 * the permission store for hosts.
 */
import * as acp from "@agentclientprotocol/sdk";
import { methods, type ClientConnection } from "@agentclientprotocol/sdk";
import { AcpThreadsError, errorMessage } from "../errors";
import { Emitter } from "../lifecycle";
import { nullLogger } from "../log";
import type { RuntimeEvent } from "../model/events";
import { buildClientApp } from "./client-app";
import { DiskWorkspaceFiles } from "./disk-workspace-files";
import { AsyncChannel } from "./async-channel";
import { normalizeUpdate } from "./normalize";
import { PathGuard } from "./path-guard";
import { DEFAULT_PERMISSION_POLICY, PermissionStore } from "./permission-policy";
import { ProtocolLog } from "./protocol-log";
import type { AcpAgentRuntime, EngineOptions, SessionEvent } from "./engine-api";
import type { AgentCapabilitiesView, FileWrite, RuntimeOptions, RuntimeStatus, SessionRequest } from "./runtime";
import { followPolicy } from "./policy-session";
import {
  ensureSession,
  listAllSessions,
  loadSession,
  type OpenedSession,
  type SessionOpenContext,
} from "./session-open";
import { SessionState, type EngineContext } from "./session-state";
import { TerminalManager } from "./terminal-handler";
import { processTransport, type AgentTransport } from "./transport";
import { UpdateQueue } from "./update-queue";
import { capabilitiesView, connectAgent } from "./agent-connect";
import type { AuthStatus } from "./auth-status";
import { TurnRunner } from "./turn-runner";
import { SubagentSessions } from "./subagent-sessions";
import { background } from "../util/unexpected";

export type { AcpAgentRuntime, EngineOptions, SessionEvent } from "./engine-api";

export function createAgentRuntime(opts: RuntimeOptions, engine: EngineOptions = {}): AcpAgentRuntime {
  return new Runtime(opts, engine);
}

class Runtime implements AcpAgentRuntime {
  readonly protocolLog: ProtocolLog;
  readonly permissions: PermissionStore;
  readonly #status = new Emitter<RuntimeStatus>();
  readonly #events = new Emitter<SessionEvent>();
  readonly onStatus = this.#status.event;
  readonly onEvent = this.#events.event;
  readonly #fileWrites = new Emitter<FileWrite>();
  readonly onFileWrite = this.#fileWrites.event;
  readonly #authStatusEmitter = new Emitter<AuthStatus>();
  readonly onAuthStatus = this.#authStatusEmitter.event;
  #statusValue: RuntimeStatus = "starting";
  #conn: ClientConnection | undefined;
  #init: acp.InitializeResponse | undefined;
  #starting: Promise<AgentCapabilitiesView> | undefined;
  #death: Promise<never> | undefined;
  #closing = false;
  #fatal: Error | undefined;
  #activeTurns = 0;
  #waiting = 0;
  #authStatus: AuthStatus | undefined;
  readonly #sessions = new Map<string, SessionState>();
  readonly #queue: UpdateQueue;
  readonly #subagents = new SubagentSessions((id) => this.#session(id).tools);
  readonly #ctx: EngineContext;
  readonly #terminals: TerminalManager;
  readonly #transport: AgentTransport;
  readonly #turns: TurnRunner;

  constructor(
    private readonly opts: RuntimeOptions,
    private readonly engine: EngineOptions,
  ) {
    const logger = opts.logger ?? nullLogger;
    const baseEnv = engine.baseEnv ?? process.env;
    this.protocolLog = engine.protocolLog ?? new ProtocolLog();
    this.permissions = new PermissionStore(opts.permissionStoreDir);
    this.#queue = new UpdateQueue((err) => logger.warn("session update handler failed", err));
    this.#ctx = {
      agentId: opts.agent.id,
      policy: opts.permissionPolicy ?? DEFAULT_PERMISSION_POLICY,
      gateEffects: engine.gateEffects,
      workspace: opts.workspaceRoots?.[0] ?? opts.cwd,
      store: this.permissions,
      asker: opts.asker,
      elicitor: opts.elicitor,
      authStatusChanged: (status) => {
        this.#authStatus = status;
        this.#authStatusEmitter.fire(status);
      },
      files: opts.files ?? new DiskWorkspaceFiles(),
      guard: new PathGuard([...(opts.workspaceRoots ?? [opts.cwd]), ...(opts.additionalDirectories ?? [])]),
      terminalHost: opts.terminalHost,
      logger,
      terminalEnv: { ...baseEnv, ...opts.env },
      sandbox: opts.sandbox,
      session: (id) => this.#session(id),
      emit: (id, event) => {
        const session = this.#session(id);
        this.#queue.run(id, () => this.#deliver(session, event));
      },
      fileWritten: (write) => {
        try {
          this.#fileWrites.fire(write);
        } catch (err) {
          logger.warn("a file-write listener failed", err);
        }
      },
      waitingForPermission: (waiting) => {
        this.#waiting += waiting ? 1 : -1;
        this.#refreshStatus();
      },
    };
    this.#terminals = new TerminalManager(this.#ctx, { noPty: engine.noPty });
    const { node, launcher } = engine;
    this.#transport =
      engine.transport ??
      processTransport(opts.agent, { cwd: opts.cwd, env: opts.env, baseEnv, node, launcher, sandbox: opts.sandbox });
    this.#turns = new TurnRunner({
      spec: opts.agent,
      cwd: opts.cwd,
      ctx: this.#ctx,
      queue: this.#queue,
      transport: this.#transport,
      terminals: opts.terminalHost ? this.#terminals : undefined,
      authMethodId: engine.authMethodId,
      session: (id) => this.#sessions.get(id),
      agent: () => this.#conn?.agent,
      init: () => this.#init,
      death: () => this.#death!,
      fatal: () => this.#fatal,
      closing: () => this.#closing,
      cancel: (id) => this.cancel(id),
      turnsChanged: (delta) => {
        this.#activeTurns += delta;
        this.#refreshStatus();
      },
    });
  }

  get pid(): number | undefined {
    return this.#transport.pid;
  }

  getStatus(): RuntimeStatus {
    return this.#statusValue;
  }

  get roots(): readonly string[] {
    return this.#ctx.guard.roots;
  }

  /** The login state the agent last reported (`_auth/status_update`), if it reports one. */
  authStatus(): AuthStatus | undefined {
    return this.#authStatus;
  }

  getCapabilities(): AgentCapabilitiesView | undefined {
    return this.#init && capabilitiesView(this.#init);
  }

  async extRequest<T>(method: string, params: Record<string, unknown>): Promise<T> {
    await this.start();
    return await Promise.race([this.#agent().request<T>(method, params), this.#death!]);
  }

  start(): Promise<AgentCapabilitiesView> {
    this.#starting ??= this.#start().catch((err: unknown) => {
      this.engine.onStartFailed?.(err);
      throw err;
    });
    return this.#starting;
  }

  async ensureSession(req?: SessionRequest): Promise<OpenedSession> {
    await this.start();
    const opened = await ensureSession(this.#openContext(), req);
    return await followPolicy(opened, this.#ctx.policy, {
      setMode: (modeId) => this.setMode(opened.sessionId, modeId),
      setConfigOption: (configId, value) => this.setConfigOption(opened.sessionId, configId, value),
      logger: this.#ctx.logger,
    });
  }

  runTurn(
    sessionId: string,
    prompt: acp.ContentBlock[] | string,
    opts: { signal?: AbortSignal } = {},
  ): AsyncIterable<RuntimeEvent> {
    const channel = new AsyncChannel<RuntimeEvent>();
    this.#turns.run(sessionId, prompt, channel, opts.signal).catch((err: unknown) => {
      // the turn's own error handling failed (the agent died while we explained its failure): the turn still ends
      this.#ctx.logger.error("a turn ended unexpectedly", err);
      channel.push({ type: "error", message: errorMessage(err) });
      channel.end();
    });
    return channel;
  }

  async cancel(sessionId: string): Promise<void> {
    const session = this.#sessions.get(sessionId);
    if (!session || !this.#conn) return;
    session.turnAbort.abort();
    // our own pending requests on this session: the SDK sends `$/cancel_request` for each and stops waiting
    session.requests.abort();
    session.requests = new AbortController();
    for (const toolCall of session.tools.cancelUnfinished()) this.#ctx.emit(sessionId, { type: "tool_call", toolCall });
    await this.#conn.agent.notify(methods.agent.session.cancel, { sessionId }).catch(() => {});
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.#agent().request(methods.agent.session.setMode, { sessionId, modeId }, this.#cancellable(sessionId));
  }

  async setConfigOption(
    sessionId: string,
    configId: string,
    value: string | boolean,
  ): Promise<acp.SessionConfigOption[]> {
    const params = (
      typeof value === "boolean" ? { sessionId, configId, type: "boolean", value } : { sessionId, configId, value }
    ) as acp.SetSessionConfigOptionRequest;
    const agent = this.#agent();
    return (await agent.request(methods.agent.session.setConfigOption, params, this.#cancellable(sessionId)))
      .configOptions;
  }

  async listSessions(cwd?: string): Promise<acp.SessionInfo[]> {
    await this.start();
    return await listAllSessions(this.#agent(), this.#init!, cwd, this.#ctx.logger);
  }

  /** `session/load` alone (no resume or new session after a failure): the session and what the agent replayed. */
  async loadSession(sessionId: string): Promise<OpenedSession> {
    await this.start();
    if (!this.#init?.agentCapabilities?.loadSession)
      throw new AcpThreadsError(
        "protocol",
        `${this.opts.agent.displayName} does not offer loading its sessions over ACP`,
      );
    return await loadSession(this.#openContext(), sessionId);
  }

  async closeSession(sessionId: string): Promise<void> {
    if (this.#init?.agentCapabilities?.sessionCapabilities?.close) {
      await this.#agent().request(methods.agent.session.close, { sessionId });
    }
    this.#sessions.delete(sessionId);
  }

  /** `session/delete`, when the agent advertises `sessionCapabilities.delete`: the agent forgets the session. */
  async deleteSession(sessionId: string): Promise<void> {
    await this.start();
    if (!this.#init?.agentCapabilities?.sessionCapabilities?.delete)
      throw new AcpThreadsError(
        "protocol",
        `${this.opts.agent.displayName} does not offer deleting its sessions over ACP`,
      );
    await this.#agent().request(methods.agent.session.delete, { sessionId });
    this.#sessions.delete(sessionId);
  }

  /** Logs in with the agent's advertised auth method (the flow a turn's `auth_required` runs). */
  async login(): Promise<void> {
    await this.start();
    await this.#turns.login();
  }

  async logout(): Promise<void> {
    await this.start();
    if (!this.#init?.agentCapabilities?.auth?.logout)
      throw new AcpThreadsError("protocol", `${this.opts.agent.displayName} does not offer logging out over ACP`);
    await this.#agent().request(methods.agent.logout, {});
  }

  terminalOutput(terminalId: string) {
    return this.#terminals.outputOf(terminalId);
  }

  /** Terminals this runtime still holds and their buffers' bytes (bounded; see terminal-handler.ts). */
  terminalsRetained(): { terminals: number; bytes: number } {
    return this.#terminals.retained;
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    for (const [id, session] of this.#sessions) if (session.sink) await this.cancel(id).catch(() => {});
    this.#terminals.disposeAll();
    this.#conn?.close();
    await this.#transport.stop();
    this.#setStatus("closed");
  }

  async #start(): Promise<AgentCapabilitiesView> {
    this.#init = await connectAgent({
      agent: this.opts.agent,
      transport: this.#transport,
      app: buildClientApp(this.#ctx, this.#terminals, (p) => this.#onUpdate(p)),
      hooks: {
        log: this.protocolLog,
        maxMessageBytes: this.engine.maxMessageBytes,
        onSessionUpdate: (p) => this.#onUpdate(p),
        onFatal: (err) => {
          // e.g. a flood without newlines: keep what the thread has, end the turn with this error, stop the agent
          this.#fatal = err;
          this.#ctx.logger.warn(err.message);
          background(this.#transport.stop(), "stopping the agent");
        },
      },
      elicitation: !!this.opts.elicitor,
      connected: (conn, death) => {
        this.#conn = conn;
        this.#death = death;
      },
      exited: () => {
        if (!this.#closing) this.#setStatus("failed");
      },
      failed: () => this.#setStatus("failed"),
    });
    if (this.#init.protocolVersion !== acp.PROTOCOL_VERSION) {
      await this.close();
      throw new AcpThreadsError(
        "unsupported_version",
        `${this.opts.agent.displayName} speaks ACP protocol version ${this.#init.protocolVersion}; this client supports ${acp.PROTOCOL_VERSION}`,
      );
    }
    this.#setStatus("idle");
    return this.getCapabilities()!;
  }

  #onUpdate(params: unknown): boolean {
    const p = params as { sessionId?: unknown; update?: unknown } | null;
    if (!p || typeof p.sessionId !== "string") {
      this.protocolLog.note("skipped a session/update without a sessionId");
      return true;
    }
    const sessionId = p.sessionId;
    this.#queue.run(this.#subagents.rootOf(sessionId) ?? sessionId, () => {
      // a subagent's child session nests under a tool call of its root session (subagent-sessions.ts)
      for (const routed of this.#subagents.route(sessionId, p.update)) {
        const session = this.#session(routed.sessionId);
        for (const event of normalizeUpdate(routed.update, session.tools)) this.#deliver(session, event);
      }
    });
    return true;
  }

  #deliver(session: SessionState, event: RuntimeEvent): void {
    session.sink?.(event);
    this.#events.fire({ sessionId: session.sessionId, event });
  }

  #session(sessionId: string): SessionState {
    let session = this.#sessions.get(sessionId);
    if (!session) this.#sessions.set(sessionId, (session = new SessionState(sessionId, this.opts.cwd)));
    return session;
  }

  /** Request options that make Stop on this session cancel the request (`$/cancel_request`). */
  #cancellable(sessionId: string): { cancellationSignal: AbortSignal; stopWaitingOnCancel: true } {
    return { cancellationSignal: this.#session(sessionId).requests.signal, stopWaitingOnCancel: true };
  }

  #agent(): acp.ClientContext {
    if (!this.#conn) throw new AcpThreadsError("protocol", "the agent is not started");
    return this.#conn.agent;
  }

  #openContext(): SessionOpenContext {
    return {
      agent: this.#agent(),
      init: this.#init!,
      cwd: this.opts.cwd,
      mcpServers: this.opts.mcpServers ?? [],
      additionalDirectories: this.opts.additionalDirectories ?? [],
      sessions: this.#sessions,
      queue: this.#queue,
      logger: this.#ctx.logger,
      withAuth: (fn) => this.#turns.withAuth(fn),
    };
  }

  #refreshStatus(): void {
    if (this.#statusValue === "closed" || this.#statusValue === "failed" || this.#statusValue === "starting") return;
    this.#setStatus(this.#waiting > 0 ? "waiting_permission" : this.#activeTurns > 0 ? "working" : "idle");
  }

  #setStatus(status: RuntimeStatus): void {
    if (this.#statusValue === status) return;
    this.#statusValue = status;
    this.#status.fire(status);
  }
}
