/**
 * One prompt turn on a runtime's connection (`session/prompt` → the turn's events, ending in `done` or `error`),
 * and the one-time `authenticate` retry on `auth_required` that turns and session opens share. The runtime
 * (agent-runtime.ts) owns the connection and sessions; this gets them through `TurnHost`.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { methods } from "@agentclientprotocol/sdk";
import { AcpThreadsError, errorMessage } from "../errors";
import type { RuntimeEvent } from "../model/events";
import type { AgentSpec } from "../model/agent";
import { background } from "../util/unexpected";
import { explainTurnFailure } from "./agent-failure";
import type { AsyncChannel } from "./async-channel";
import { authenticate, isAuthRequired } from "./auth";
import { sessionFailureMessage, sessionFailureOf } from "./session-failure";
import type { EngineContext, SessionState } from "./session-state";
import type { TerminalManager } from "./terminal-handler";
import type { AgentTransport } from "./transport";
import { turnUsageFrom } from "./turn-usage";
import type { UpdateQueue } from "./update-queue";

/** What a turn needs from the runtime that runs it. */
export interface TurnHost {
  readonly spec: AgentSpec;
  readonly cwd: string;
  readonly ctx: EngineContext;
  readonly queue: UpdateQueue;
  readonly transport: AgentTransport;
  readonly terminals: TerminalManager | undefined;
  readonly authMethodId: string | undefined;
  /** The session, if we opened or saw it. */
  session(sessionId: string): SessionState | undefined;
  /** The connection's agent side; undefined before start. */
  agent(): acp.ClientContext | undefined;
  init(): acp.InitializeResponse | undefined;
  /** Rejects when the agent process exits. */
  death(): Promise<never>;
  /** The stream failure that stopped the agent (e.g. a flood without newlines), if any. */
  fatal(): Error | undefined;
  closing(): boolean;
  cancel(sessionId: string): Promise<void>;
  /** A turn started (+1) or ended (-1). */
  turnsChanged(delta: 1 | -1): void;
}

export class TurnRunner {
  #authenticated = false;

  constructor(private readonly host: TurnHost) {}

  /** Runs `fn`; on `auth_required` authenticates once per runtime and runs it again. */
  async withAuth<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (!isAuthRequired(err) || this.#authenticated) throw err;
      await this.login();
      return await fn();
    }
  }

  /** `authenticate` with the agent's advertised methods (asked for, or on `auth_required`). */
  async login(): Promise<void> {
    this.#authenticated = true;
    const host = this.host;
    const terminalHost = host.ctx.terminalHost;
    await authenticate(host.init()?.authMethods ?? [], {
      agent: host.agent()!,
      spec: host.spec,
      cwd: host.cwd,
      env: host.ctx.terminalEnv,
      preferredMethodId: host.authMethodId,
      logger: host.ctx.logger,
      terminals: host.terminals,
      ...(terminalHost?.loginUnseen ? { loginUnseen: () => terminalHost.loginUnseen!() } : {}),
    }).catch((err: unknown) => {
      // nobody could see the login: a later turn (someone watching by then) logs in again
      if (err instanceof AcpThreadsError && err.details?.loginUnseen) this.#authenticated = false;
      throw err;
    });
  }

  /** Runs one turn into `channel` and ends it; never throws for a failed turn (the channel gets an `error`). */
  async run(
    sessionId: string,
    prompt: acp.ContentBlock[] | string,
    channel: AsyncChannel<RuntimeEvent>,
    signal?: AbortSignal,
  ): Promise<void> {
    const host = this.host;
    const session = host.session(sessionId);
    const agent = host.agent();
    if (!session || !agent || session.sink) {
      const why = !session
        ? `unknown session ${sessionId}`
        : !agent
          ? "agent not started"
          : "a turn is already running in this session";
      channel.push({ type: "error", message: why });
      return channel.end();
    }
    session.beginTurn((event) => channel.push(event));
    host.turnsChanged(1);
    const onAbort = () => background(host.cancel(sessionId), "cancelling the turn");
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const blocks: acp.ContentBlock[] = typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt;
      const res = await this.withAuth(() =>
        Promise.race([agent.request(methods.agent.session.prompt, { sessionId, prompt: blocks }), host.death()]),
      );
      await host.queue.idle(sessionId);
      // not in the stable schema yet: claude-agent-acp and opencode send `usage`, gemini `_meta.quota`
      const usage = turnUsageFrom(res);
      // codex-acp 2.6 / claude-agent-acp 0.101 end a turn whose model API failed with end_turn + a typed failure
      const failed = sessionFailureOf(res._meta);
      if (failed?.severity === "error")
        channel.push({ type: "error", message: sessionFailureMessage(failed), code: "model_failure" });
      else channel.push({ type: "done", stopReason: res.stopReason, ...(usage ? { usage } : {}) });
    } catch (err) {
      await host.queue.idle(sessionId);
      const fatal = host.fatal();
      const failure = fatal
        ? { message: fatal.message }
        : host.closing()
          ? { message: errorMessage(err) }
          : await explainTurnFailure(err, host.spec, host.transport);
      channel.push({
        type: "error",
        message: failure.message,
        ...(failure.code !== undefined ? { code: failure.code } : {}),
      });
    } finally {
      signal?.removeEventListener("abort", onAbort);
      session.sink = undefined;
      host.turnsChanged(-1);
      channel.end();
    }
  }
}
