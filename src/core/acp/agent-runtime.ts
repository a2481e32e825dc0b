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
import { authenticate, isAuthRequired } from "./auth";
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
import { ensureSession, listAllSessions, type OpenedSession, type SessionOpenContext } from "./session-open";
import { SessionState, type EngineContext } from "./session-state";
import { TerminalManager } from "./terminal-handler";
import { processTransport, type AgentTransport } from "./transport";
import { UpdateQueue } from "./update-queue";
import { exitedDuringInitialize, exitSoon, explainTurnFailure } from "./agent-failure";
import type { AuthStatus } from "./auth-status";
import { clientInitializeParams } from "./initialize";
import { turnUsageFrom } from "./turn-usage";
import { background } from "../util/unexpected";
import { sessionFailureMessage, sessionFailureOf } from "./session-failure";

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
  readonly #ctx: EngineContext;
  readonly #terminals: TerminalManager;
  readonly #transport: AgentTransport;

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
      },
      files: opts.files ?? new DiskWorkspaceFiles(),
      guard: new PathGuard([...(opts.workspaceRoots ?? [opts.cwd]), ...(opts.additionalDirectories ?? [])]),
      terminalHost: opts.terminalHost,
      logger,
      terminalEnv: { ...baseEnv, ...opts.env },
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
    this.#transport =
      engine.transport ?? processTransport(opts.agent, { cwd: opts.cwd, env: opts.env, baseEnv, node: engine.node });
  }

  get pid(): number | undefined {
    return this.#transport.pid;
  }

  getStatus(): RuntimeStatus {
    return this.#statusValue;
  }

  /** The login state the agent last reported (`_auth/status_update`), if it reports one. */
  authStatus(): AuthStatus | undefined {
    return this.#authStatus;
  }

  getCapabilities(): AgentCapabilitiesView | undefined {
    const init = this.#init;
    return (
      init && {
        protocolVersion: init.protocolVersion,
        agentInfo: init.agentInfo,
        agentCapabilities: init.agentCapabilities ?? {},
        authMethods: init.authMethods ?? [],
        meta: init._meta,
      }
    );
  }

  async extRequest<T>(method: string, params: Record<string, unknown>): Promise<T> {
    await this.start();
    return await Promise.race([this.#agent().request<T>(method, params), this.#death!]);
  }

  start(): Promise<AgentCapabilitiesView> {
    this.#starting ??= this.#start();
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
    this.#turn(sessionId, prompt, channel, opts.signal).catch((err: unknown) => {
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
    for (const toolCall of session.tools.cancelUnfinished()) this.#ctx.emit(sessionId, { type: "tool_call", toolCall });
    await this.#conn.agent.notify(methods.agent.session.cancel, { sessionId }).catch(() => {});
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.#agent().request(methods.agent.session.setMode, { sessionId, modeId });
  }

  async setConfigOption(
    sessionId: string,
    configId: string,
    value: string | boolean,
  ): Promise<acp.SessionConfigOption[]> {
    const params = (
      typeof value === "boolean" ? { sessionId, configId, type: "boolean", value } : { sessionId, configId, value }
    ) as acp.SetSessionConfigOptionRequest;
    return (await this.#agent().request(methods.agent.session.setConfigOption, params)).configOptions;
  }

  async listSessions(cwd?: string): Promise<acp.SessionInfo[]> {
    await this.start();
    return await listAllSessions(this.#agent(), this.#init!, cwd, this.#ctx.logger);
  }

  async closeSession(sessionId: string): Promise<void> {
    if (this.#init?.agentCapabilities?.sessionCapabilities?.close) {
      await this.#agent().request(methods.agent.session.close, { sessionId });
    }
    this.#sessions.delete(sessionId);
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
    const conn = this.#transport.connect(
      buildClientApp(this.#ctx, this.#terminals, (p) => this.#onUpdate(p)),
      {
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
    );
    this.#conn = conn;
    this.#death = this.#transport.exited.then((exit) => {
      if (!this.#closing) this.#setStatus("failed");
      throw new AcpThreadsError(
        "agent_exited",
        `${this.opts.agent.displayName} exited (code ${exit.code}, signal ${exit.signal})`,
        {
          stderrTail: this.#transport.stderrTail(),
        },
      );
    });
    this.#death.catch(() => {});
    try {
      const init = conn.agent.request(
        methods.agent.initialize,
        clientInitializeParams({ elicitation: !!this.opts.elicitor }),
      );
      this.#init = await Promise.race([init, this.#death]);
    } catch (err) {
      this.#setStatus("failed");
      const exit = await exitSoon(this.#transport);
      await this.#transport.stop();
      throw exitedDuringInitialize(this.opts.agent, err, exit, this.#transport.stderrTail());
    }
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

  async #turn(
    sessionId: string,
    prompt: acp.ContentBlock[] | string,
    channel: AsyncChannel<RuntimeEvent>,
    signal?: AbortSignal,
  ) {
    const session = this.#sessions.get(sessionId);
    if (!session || !this.#conn || session.sink) {
      const why = !session
        ? `unknown session ${sessionId}`
        : !this.#conn
          ? "agent not started"
          : "a turn is already running in this session";
      channel.push({ type: "error", message: why });
      return channel.end();
    }
    session.beginTurn((event) => channel.push(event));
    this.#activeTurns++;
    this.#refreshStatus();
    const onAbort = () => background(this.cancel(sessionId), "cancelling the turn");
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const blocks: acp.ContentBlock[] = typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt;
      const agent = this.#agent();
      const res = await this.#withAuth(() =>
        Promise.race([agent.request(methods.agent.session.prompt, { sessionId, prompt: blocks }), this.#death!]),
      );
      await this.#queue.idle(sessionId);
      // not in the stable schema yet: claude-agent-acp and opencode send `usage`, gemini `_meta.quota`
      const usage = turnUsageFrom(res);
      // codex-acp 2.6 / claude-agent-acp 0.101 end a turn whose model API failed with end_turn + a typed failure
      const failed = sessionFailureOf(res._meta);
      if (failed?.severity === "error")
        channel.push({ type: "error", message: sessionFailureMessage(failed), code: "model_failure" });
      else channel.push({ type: "done", stopReason: res.stopReason, ...(usage ? { usage } : {}) });
    } catch (err) {
      await this.#queue.idle(sessionId);
      const failure = this.#fatal
        ? { message: this.#fatal.message }
        : this.#closing
          ? { message: errorMessage(err) }
          : await explainTurnFailure(err, this.opts.agent, this.#transport);
      channel.push({
        type: "error",
        message: failure.message,
        ...(failure.code !== undefined ? { code: failure.code } : {}),
      });
    } finally {
      signal?.removeEventListener("abort", onAbort);
      session.sink = undefined;
      this.#activeTurns--;
      this.#refreshStatus();
      channel.end();
    }
  }

  #onUpdate(params: unknown): boolean {
    const p = params as { sessionId?: unknown; update?: unknown } | null;
    if (!p || typeof p.sessionId !== "string") {
      this.protocolLog.note("skipped a session/update without a sessionId");
      return true;
    }
    const session = this.#session(p.sessionId);
    this.#queue.run(p.sessionId, () => {
      for (const event of normalizeUpdate(p.update, session.tools)) this.#deliver(session, event);
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

  #agent(): acp.ClientContext {
    if (!this.#conn) throw new AcpThreadsError("protocol", "the agent is not started");
    return this.#conn.agent;
  }

  #authenticated = false;
  async #withAuth<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (!isAuthRequired(err) || this.#authenticated) throw err;
      this.#authenticated = true;
      await authenticate(this.#init?.authMethods ?? [], {
        agent: this.#agent(),
        spec: this.opts.agent,
        cwd: this.opts.cwd,
        env: this.#ctx.terminalEnv,
        preferredMethodId: this.engine.authMethodId,
        logger: this.#ctx.logger,
        terminals: this.opts.terminalHost ? this.#terminals : undefined,
      });
      return await fn();
    }
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
      withAuth: (fn) => this.#withAuth(fn),
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
