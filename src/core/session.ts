/**
 * `ThreadSession` joins an `AgentRuntime` to a `LiveThread`: every prompt turn is recorded into the thread
 * and re-emitted to listeners (views, CLI). `ThreadSession.resume` reopens a thread with the ladder
 * session/load → session/resume → new session seeded with context rebuilt from our own history; the same
 * ladder runs after an agent crash, on the next prompt.
 */
import type { AgentRuntime, RuntimeStatus } from "./acp/runtime";
import { errorMessage } from "./errors";
import { Emitter, type Disposable } from "./lifecycle";
import { nullLogger, type Logger } from "./log";
import type { RuntimeEvent } from "./model/events";
import type { AgentInfoRef, TurnUsage } from "./model/usage";
import { gitInfo } from "./store/git-info";
import type { ThreadMetadata } from "./model/metadata";
import type { AgentRef } from "./model/records";
import type { ThreadHandle, ThreadStore } from "./store/thread-store";
import type { EditLedger } from "./ledger/edit-ledger";
import { SessionLedger } from "./ledger/session-ledger";
import { buildSeedText } from "./thread/context-seed";
import { LiveThread, modelOf, type LiveThreadOptions } from "./thread/live-thread";

export interface ThreadSessionOptions {
  store: ThreadStore;
  /** Makes a runtime for this agent; called again to recover after the agent crashed. */
  createRuntime: () => AgentRuntime;
  agent: AgentRef;
  cwd: string;
  title?: string;
  /** Id for a new thread (a host that names the thread before it starts); default: a fresh time-ordered id. */
  threadId?: string;
  logger?: Logger;
  live?: LiveThreadOptions;
  /** Records what each turn changes in the workspace (review, restore, provenance). */
  ledger?: EditLedger;
}

export type ThreadSessionStatus = "starting" | "idle" | "working" | "closed" | "failed";
/** How the agent session behind the thread was obtained; `seeded` = a new session given our history. */
export type SessionOrigin = "new" | "load" | "resume" | "seeded";

export interface TurnResult {
  stopReason: string;
  error?: string;
  /** Token usage the agent reported for the turn. */
  usage?: TurnUsage;
}

const DEAD: RuntimeStatus[] = ["closed", "failed"];
const CLOSE_GRACE_MS = 3000;

export class ThreadSession {
  readonly #events = new Emitter<RuntimeEvent>();
  readonly #statusEmitter = new Emitter<ThreadSessionStatus>();
  readonly onEvent: (listener: (e: RuntimeEvent) => void) => Disposable = this.#events.event;
  readonly onStatus: (listener: (s: ThreadSessionStatus) => void) => Disposable = this.#statusEmitter.event;
  #status: ThreadSessionStatus = "idle";
  #seed = "";
  #turn: Promise<TurnResult> | undefined;
  #origin: SessionOrigin = "new";
  readonly #ledger: SessionLedger | undefined;

  private constructor(
    private readonly opts: ThreadSessionOptions,
    private runtime: AgentRuntime,
    readonly live: LiveThread,
    private sessionId: string,
  ) {
    const agent = { id: opts.agent.id, name: opts.agent.name };
    const logger = opts.logger ?? nullLogger;
    this.#ledger =
      opts.ledger && new SessionLedger(opts.ledger, live.threadId, opts.cwd, agent, (e) => this.#emit(e), logger);
    this.#ledger?.attach(runtime, () => this.sessionId);
  }

  /** A new thread on a new agent session. */
  static async start(opts: ThreadSessionOptions): Promise<ThreadSession> {
    const runtime = opts.createRuntime();
    let handle: ThreadHandle | undefined;
    const baseline = opts.ledger?.prepare(opts.cwd); // the folder's baseline builds while the agent starts
    try {
      const info = await runtime.ensureSession();
      const git = gitInfo(opts.cwd);
      handle = opts.store.create({
        ...(opts.threadId ? { threadId: opts.threadId } : {}),
        agent: opts.agent,
        mode: "acp",
        cwd: opts.cwd,
        ...git,
        agentSessionId: info.sessionId,
        ...(opts.title ? { title: opts.title } : {}),
      });
      const meta = opts.store.readPath(handle.path).metadata;
      const live = new LiveThread(handle, meta, opts.live);
      const model = modelOf(info.configOptions);
      if (model) live.patch({ model });
      live.sessionOpened(info.sessionId, "new", agentInfoOf(runtime));
      const session = new ThreadSession(opts, runtime, live, info.sessionId);
      void baseline?.then((lease) => lease.dispose());
      return session;
    } catch (err) {
      handle?.close();
      void baseline?.then((lease) => lease.dispose());
      await runtime.close().catch(() => undefined);
      throw err;
    }
  }

  /** Reopens `threadId` for more turns (see the ladder above). */
  static async resume(
    opts: Omit<ThreadSessionOptions, "agent" | "cwd"> & Partial<ThreadSessionOptions>,
    threadId: string,
  ): Promise<ThreadSession> {
    const { metadata } = opts.store.read(threadId);
    const full: ThreadSessionOptions = { ...opts, agent: opts.agent ?? metadata.agent, cwd: opts.cwd ?? metadata.cwd };
    const handle = opts.store.open(threadId);
    const runtime = full.createRuntime();
    try {
      const session = new ThreadSession(
        full,
        runtime,
        new LiveThread(handle, metadata, full.live),
        metadata.agentSessionId ?? "",
      );
      await session.#attach(runtime);
      return session;
    } catch (err) {
      handle.close();
      await runtime.close().catch(() => undefined);
      throw err;
    }
  }

  get threadId(): string {
    return this.live.threadId;
  }
  get metadata(): ThreadMetadata {
    return this.live.metadata;
  }
  get agentSessionId(): string {
    return this.sessionId;
  }
  get origin(): SessionOrigin {
    return this.#origin;
  }
  get status(): ThreadSessionStatus {
    return this.#status;
  }
  /** Seed text waiting to be sent with the next prompt (empty once sent). */
  get pendingSeed(): string {
    return this.#seed;
  }

  /** Records the user message, runs the turn, records and re-emits every event. */
  prompt(text: string, opts: { signal?: AbortSignal } = {}): Promise<TurnResult> {
    if (this.#status === "closed") return Promise.reject(new Error(`thread ${this.threadId} is closed`));
    if (this.#turn) return Promise.reject(new Error(`thread ${this.threadId} is already running a turn`));
    const turn = this.#runTurn(text, opts).finally(() => (this.#turn = undefined));
    this.#turn = turn;
    return turn;
  }

  async #runTurn(text: string, opts: { signal?: AbortSignal }): Promise<TurnResult> {
    if (DEAD.includes(this.runtime.getStatus())) {
      try {
        await this.#recover();
      } catch (err) {
        this.#setStatus("failed");
        throw err;
      }
    }
    this.#setStatus("working");
    this.live.beginTurn(text);
    await this.#ledger?.begin(this.live.metadata.counters.userMessages);
    const seeded = this.#seed;
    let result: TurnResult = { stopReason: "error", error: "the turn ended without a result" };
    try {
      for await (const event of this.runtime.runTurn(this.sessionId, seeded + text, opts)) {
        if (event.type === "done") {
          result = { stopReason: event.stopReason, ...(event.usage ? { usage: event.usage } : {}) };
          this.#seed = "";
        } else if (event.type === "error") result = { stopReason: "error", error: event.message };
        if (event.type !== "done" && !this.live.handle.closed) this.live.record(event);
        this.#ledger?.observe(event);
        this.#emit(event);
      }
    } catch (err) {
      result = { stopReason: "error", error: errorMessage(err) };
      if (!this.live.handle.closed) this.live.record({ type: "error", message: result.error! });
      this.#emit({ type: "error", message: result.error! });
    }
    await this.#ledger?.end(result.stopReason);
    if (this.#status === "closed") return result;
    this.live.endTurn(result.stopReason, "idle", result.usage);
    this.#setStatus(DEAD.includes(this.runtime.getStatus()) ? "failed" : "idle");
    return result;
  }

  async cancel(): Promise<void> {
    if (this.#status === "working") await this.runtime.cancel(this.sessionId);
  }

  /** Ends the session: the thread is flushed and marked `idle` (or the given status), the agent stopped. */
  async close(status: "idle" | "done" | "failed" = "idle"): Promise<void> {
    if (this.#status === "closed") return;
    if (this.#turn) {
      // let the agent wind the turn down so its last events are recorded, but never hang on a stuck agent
      await this.runtime.cancel(this.sessionId).catch(() => undefined);
      await Promise.race([
        this.#turn.catch(() => undefined),
        new Promise((r) => setTimeout(r, CLOSE_GRACE_MS).unref()),
      ]);
    }
    this.live.close(status);
    this.#ledger?.dispose();
    this.#setStatus("closed");
    await this.runtime.close().catch((err) => (this.opts.logger ?? nullLogger).warn("closing the agent failed", err));
    this.#events.dispose();
    this.#statusEmitter.dispose();
  }

  /** After an agent crash: a fresh runtime through the same ladder. */
  async #recover(): Promise<void> {
    await this.runtime.close().catch(() => undefined);
    this.runtime = this.opts.createRuntime();
    this.#ledger?.attach(this.runtime, () => this.sessionId);
    await this.#attach(this.runtime);
  }

  async #attach(runtime: AgentRuntime): Promise<void> {
    this.#setStatus("starting");
    const previous = this.sessionId;
    const info = await runtime.ensureSession(previous ? { resumeSessionId: previous } : {});
    this.sessionId = info.sessionId;
    if (info.origin === "new") {
      const { records } = this.opts.store.readPath(this.live.handle.path);
      this.#seed = buildSeedText(records);
      this.#origin = this.#seed ? "seeded" : "new";
    } else this.#origin = info.origin;
    const model = modelOf(info.configOptions);
    this.live.patch({ agentSessionId: info.sessionId, ...(model ? { model } : {}) }); // a no-op when nothing changed
    this.live.sessionOpened(info.sessionId, this.#origin, agentInfoOf(runtime));
    this.#setStatus("idle");
  }

  #emit(event: RuntimeEvent): void {
    try {
      this.#events.fire(event);
    } catch (err) {
      (this.opts.logger ?? nullLogger).warn("a thread event listener failed", err);
    }
  }

  #setStatus(status: ThreadSessionStatus): void {
    if (this.#status === status) return;
    this.#status = status;
    this.#statusEmitter.fire(status);
  }
}

/** The agent's name and version from `initialize`, when the runtime knows them. */
function agentInfoOf(runtime: AgentRuntime): AgentInfoRef | undefined {
  const info = runtime.getCapabilities()?.agentInfo;
  return info?.name ? { name: info.name, ...(info.version ? { version: info.version } : {}) } : undefined;
}

/** Convenience for callers that hold the options already: `ThreadSession.resume`. */
export function resumeThread(
  opts: Omit<ThreadSessionOptions, "agent" | "cwd">,
  threadId: string,
): Promise<ThreadSession> {
  return ThreadSession.resume(opts, threadId);
}
