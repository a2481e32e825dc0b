/**
 * `ThreadSession` is the one place that joins an `AgentRuntime` to a thread (`LiveThread`): every prompt turn
 * is recorded into the thread and re-emitted to listeners. The CLI (`acp-threads run`) and the editor
 * (LiveSession) both run agents through it. `ThreadSession.resume` reopens a thread with the ladder
 * session/load → session/resume → new session seeded with context rebuilt from our own history; the same
 * ladder runs after an agent crash, on the next prompt.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { untilAborted } from "./abort";
import type { AgentCapabilitiesView, AgentRuntime, RuntimeStatus, SessionInfo } from "./acp/runtime";
import { join } from "node:path";
import { Emitter, type Disposable } from "./lifecycle";
import { nullLogger } from "./log";
import type { PromptPart } from "./model/context";
import type { RuntimeEvent } from "./model/events";
import type { BuiltPrompt, ContextSources } from "./prompt/blocks";
import { preparePrompt } from "./prompt/prepare";
import type { AgentInfoRef } from "./model/usage";
import { promptCount, type ThreadMetadata } from "./model/metadata";
import { newThreadId } from "./store/thread-id";
import type { ThreadHandle } from "./store/thread-store";
import { SessionLedger } from "./ledger/session-ledger";
import { BestEffortSink } from "./thread/best-effort-sink";
import { buildSeedText } from "./thread/context-seed";
import { LiveThread } from "./thread/live-thread";
import { promptText, withSeed, type PromptContent } from "./thread/prompt-text";
import { agentInfoOf, openedPatch, recordNewThread, sinkFor } from "./session/new-thread";
import { gitInfoAsync } from "./store/git-info";
import { RuntimeTaps } from "./session/runtime-taps";
import { steerSession, type SteerOptions } from "./session/steer";
import { takeTurn } from "./session/turn-events";
import { cancelledTurn, releaseBaseline } from "./session/turn-helpers";
import type { SteerOutcome } from "./acp/steering";
import type {
  AgentExit,
  PromptOptions,
  SessionOrigin,
  ThreadSessionOptions,
  ThreadSessionStatus,
  TurnResult,
} from "./session/types";

export type { AgentExit, PromptOptions, SessionOrigin, ThreadSessionOptions, ThreadSessionStatus, TurnResult };

const DEAD: RuntimeStatus[] = ["closed", "failed"];
const CLOSE_GRACE_MS = 3000;

export class ThreadSession<R extends AgentRuntime = AgentRuntime> {
  readonly #events = new Emitter<RuntimeEvent>();
  readonly #statusEmitter = new Emitter<ThreadSessionStatus>();
  readonly onEvent: (listener: (e: RuntimeEvent) => void) => Disposable = this.#events.event;
  readonly onStatus: (listener: (s: ThreadSessionStatus) => void) => Disposable = this.#statusEmitter.event;
  #status: ThreadSessionStatus = "idle";
  #seed = "";
  #turn: Promise<TurnResult> | undefined;
  /** Set by `cancel` while the turn is starting (the ledger's capture begins before the prompt is sent). */
  #cancelBeforePrompt = false;
  #origin: SessionOrigin = "new";
  #info: SessionInfo | undefined;
  readonly #ledger: SessionLedger | undefined;
  readonly #taps: RuntimeTaps;
  /** Every protocol line of the current agent process, its stderr included (the watchdog reads it). */
  readonly onTraffic: RuntimeTaps["onTraffic"];
  /** The agent process died; the next prompt (or `restart`) reopens the session in a new one. */
  readonly onAgentExit: RuntimeTaps["onAgentExit"];
  /** Resolves once the protocol traffic recorded so far is in the traffic file. */
  readonly flushTraffic: RuntimeTaps["flushTraffic"];

  private constructor(
    private readonly opts: ThreadSessionOptions<R>,
    private currentRuntime: R,
    readonly live: LiveThread,
    private sessionId: string,
  ) {
    this.#taps = new RuntimeTaps({
      trafficFile:
        opts.recordTraffic === false ? undefined : join(opts.store.layout.trafficDir, `${live.threadId}.ndjson`),
      agentName: opts.agent.name,
      open: () => this.#status !== "closed",
      // work the agent goes on with outside a turn is history too (claude-agent-acp 0.23 answers the prompt after
      // a cancel with an instant end_turn and does the work in the background)
      background: (sessionId, event) => {
        if (this.#turn || sessionId !== this.sessionId || this.#status === "closed") return;
        if (event.type === "done" || event.type === "commands") return;
        if (!this.live.handle.closed) this.live.record(event);
        this.#emit(event);
      },
    });
    this.onTraffic = this.#taps.onTraffic;
    this.flushTraffic = () => this.#taps.flushTraffic();
    this.onAgentExit = this.#taps.onAgentExit;
    const agent = { id: opts.agent.id, name: opts.agent.name };
    const logger = opts.logger ?? nullLogger;
    this.#ledger =
      opts.ledger && new SessionLedger(opts.ledger, live.threadId, opts.cwd, agent, (e) => this.#emit(e), logger);
    this.#ledger?.attach(currentRuntime, () => this.sessionId);
  }

  /**
   * A new thread (named `opts.threadId`, else a fresh id) on a new agent session. When `signal` aborts before
   * the session is open, the agent is stopped and this rejects with "stopped".
   */
  static async start<R extends AgentRuntime>(
    opts: ThreadSessionOptions<R>,
    { signal }: { signal?: AbortSignal } = {},
  ): Promise<ThreadSession<R>> {
    const runtime = opts.createRuntime();
    const threadId = opts.threadId ?? newThreadId();
    let handle: ThreadHandle | undefined;
    const baseline = opts.ledger?.prepare(opts.cwd); // the folder's baseline builds while the agent starts
    const repo = gitInfoAsync(opts.cwd); // so do the folder's git facts (never rejects)
    try {
      const info = await untilAborted(runtime.ensureSession(), signal);
      let live: LiveThread;
      ({ live, handle } = await recordNewThread(opts, threadId, info, runtime, await repo));
      const session = new ThreadSession(opts, runtime, live, info.sessionId);
      session.#info = info;
      releaseBaseline(baseline);
      session.#taps.follow(runtime, info.sessionId);
      return session;
    } catch (err) {
      handle?.close();
      releaseBaseline(baseline);
      await runtime.close().catch(() => undefined);
      throw err;
    }
  }

  /** Reopens `threadId` for more turns (see the ladder above); `signal` as for `start`. */
  static async resume<R extends AgentRuntime>(
    opts: Omit<ThreadSessionOptions<R>, "agent" | "cwd"> & Partial<ThreadSessionOptions<R>>,
    threadId: string,
    { signal }: { signal?: AbortSignal } = {},
  ): Promise<ThreadSession<R>> {
    const { metadata } = await opts.store.readExisting(threadId);
    const full: ThreadSessionOptions<R> = {
      ...opts,
      agent: opts.agent ?? metadata.agent,
      cwd: opts.cwd ?? metadata.cwd,
    };
    const handle = await opts.store.openAsync(threadId);
    const runtime = full.createRuntime();
    try {
      const live = new LiveThread(sinkFor(full, threadId, handle), metadata, full.live);
      const session = new ThreadSession(full, runtime, live, metadata.agentSessionId ?? "");
      await session.#attach(runtime, signal);
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
  /** False when best-effort recording (`onRecordError`) gave up on the thread, or never had one. */
  get recorded(): boolean {
    const sink = this.live.handle;
    return sink instanceof BestEffortSink ? sink.recording : true;
  }
  /** The current runtime (a crash recovery or `restart` replaces it). */
  get runtime(): R {
    return this.currentRuntime;
  }
  /** The last session/new|load|resume answer: modes and config options for pickers. */
  get sessionInfo(): SessionInfo | undefined {
    return this.#info;
  }
  get capabilities(): AgentCapabilitiesView | undefined {
    return this.currentRuntime.getCapabilities();
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
  /** The agent's name and version from `initialize`. */
  get agentInfo(): AgentInfoRef | undefined {
    return agentInfoOf(this.runtime);
  }
  /** Whether the agent process is up (false once it died or was closed). */
  get agentAlive(): boolean {
    return !DEAD.includes(this.runtime.getStatus());
  }
  get turnRunning(): boolean {
    return this.#turn !== undefined;
  }
  /** Resolves when no turn is running. */
  async turnEnded(): Promise<void> {
    while (this.#turn) await this.#turn.catch(() => undefined);
  }

  /**
   * Records the user message, runs the turn, records and re-emits every event. The prompt is text or ACP
   * content blocks (sent as they are; seeded history goes in front as a text block).
   */
  prompt(prompt: PromptContent, opts: PromptOptions = {}): Promise<TurnResult> {
    if (this.#status === "closed") return Promise.reject(new Error(`thread ${this.threadId} is closed`));
    if (this.#turn) return Promise.reject(new Error(`thread ${this.threadId} is already running a turn`));
    const turn = this.#runTurn(prompt, opts).finally(() => (this.#turn = undefined));
    this.#turn = turn;
    return turn;
  }

  /**
   * Builds a prompt with context for this agent (blocks by its prompt capabilities, images kept beside the
   * thread). Rejects, sending and recording nothing, when the agent cannot take it.
   */
  preparePrompt(parts: readonly PromptPart[], sources: ContextSources): Promise<BuiltPrompt> {
    return preparePrompt(parts, {
      caps: this.capabilities?.agentCapabilities.promptCapabilities,
      sources,
      agentName: this.opts.agent.name,
      threadsDir: this.opts.store.threadsDir,
      threadId: this.threadId,
    });
  }

  /** A turn with a prompt made by `preparePrompt`: its blocks are sent, its text and chips recorded. */
  promptBuilt(built: BuiltPrompt, opts: Omit<PromptOptions, "recordText" | "recordContext"> = {}) {
    return this.prompt(built.blocks, { ...opts, recordText: built.text, recordContext: built.refs });
  }

  async #runTurn(prompt: PromptContent, opts: PromptOptions): Promise<TurnResult> {
    if (DEAD.includes(this.runtime.getStatus())) {
      try {
        await this.#recover();
      } catch (err) {
        this.#setStatus("failed");
        throw err;
      }
    }
    this.#setStatus("working");
    this.live.beginTurn(opts.recordText ?? promptText(prompt), undefined, opts.recordContext);
    this.#cancelBeforePrompt = false;
    await this.#ledger?.begin(promptCount(this.live.metadata.counters));
    const seeded = this.#seed;
    const result = await takeTurn(
      () =>
        // a cancel that came while the turn was starting: the prompt is never sent (the runtime had no turn to stop)
        this.#cancelBeforePrompt || opts.signal?.aborted
          ? cancelledTurn()
          : this.runtime.runTurn(this.sessionId, withSeed(seeded, prompt), { signal: opts.signal }),
      {
        record: (event) => {
          if (!this.live.handle.closed) this.live.record(event);
        },
        observe: (event) => this.#ledger?.observe(event),
        emit: (event) => this.#emit(event),
        done: () => (this.#seed = ""),
      },
    );
    await this.#ledger?.end(result.stopReason);
    if (this.#status === "closed") return result;
    this.live.endTurn(result.stopReason, "idle", result.usage);
    this.#setStatus(DEAD.includes(this.runtime.getStatus()) ? "failed" : "idle");
    return result;
  }

  /** Sends `prompt` into the running turn when the agent takes steering (session/steer.ts). */
  steer(prompt: PromptContent, opts: SteerOptions = {}): Promise<SteerOutcome> {
    const { runtime, sessionId, live, turnRunning } = this;
    const target = { runtime, agentName: this.opts.agent.name, sessionId, live, turnRunning };
    return steerSession(target, prompt, opts, (e) => this.#emit(e));
  }

  async cancel(): Promise<void> {
    if (this.#status !== "working") return;
    await this.#cancelTurn();
  }

  /**
   * Stops the running turn. One still starting (its prompt not sent yet: the edit ledger's baseline, say) never
   * sends it: the runtime has no turn to stop then, and an agent ignores a cancel that comes before the prompt.
   */
  async #cancelTurn(): Promise<void> {
    this.#cancelBeforePrompt = true;
    await this.runtime.cancel(this.sessionId);
  }

  /**
   * Cancels a running turn and lets the agent wind it down (so its last events are recorded) for at most
   * `graceMs`: never hangs on a stuck agent.
   */
  async #windDown(graceMs = CLOSE_GRACE_MS): Promise<void> {
    const turn = this.#turn;
    if (!turn) return;
    await this.#cancelTurn().catch(() => undefined);
    await Promise.race([turn.catch(() => undefined), new Promise((r) => setTimeout(r, graceMs).unref())]);
  }

  /** Sets the agent's mode; the change is emitted at once (not every agent confirms with `current_mode_update`). */
  async setMode(modeId: string): Promise<void> {
    await this.runtime.setMode(this.sessionId, modeId);
    this.#emit({ type: "mode", modeId });
  }

  /** Sets a session config option; the agent's new option list is recorded (a model change) and emitted. */
  async setConfigOption(configId: string, value: string | boolean): Promise<acp.SessionConfigOption[]> {
    const options = await this.runtime.setConfigOption(this.sessionId, configId, value);
    const event: RuntimeEvent = { type: "config_options", options };
    if (!this.live.handle.closed) this.live.record(event);
    this.#emit(event);
    return options;
  }

  /**
   * Ends the session: the thread is flushed and marked `idle` (or the given status), the agent stopped. A
   * running turn is cancelled and given `graceMs` (default 3 s) to wind down, so its last events are recorded.
   */
  async close(status: "idle" | "done" | "failed" = "idle", opts: { graceMs?: number } = {}): Promise<void> {
    if (this.#status === "closed") return;
    await this.#windDown(opts.graceMs);
    this.live.close(status);
    this.#ledger?.dispose();
    this.#setStatus("closed");
    await this.runtime.close().catch((err) => (this.opts.logger ?? nullLogger).warn("closing the agent failed", err));
    const recorded = this.#taps.close();
    this.#events.dispose();
    this.#statusEmitter.dispose();
    await recorded;
    // a thread closed off the caller's thread (durability "soon"): closed means durable and unlocked here too
    await this.opts.store.whenClosed(this.threadId);
  }

  /**
   * Stops the agent (a running turn is cancelled, then cut off with the process) and reopens the thread's
   * session in a new process through the ladder above. Resolves with how the session was reopened.
   */
  async restart(): Promise<SessionOrigin> {
    if (this.#status === "closed") throw new Error(`thread ${this.threadId} is closed`);
    const turn = this.#turn;
    if (turn) {
      await this.#windDown();
      // a turn that ignored the cancel ends when its process is stopped
      await this.runtime.close().catch(() => undefined);
      await turn.catch(() => undefined);
    }
    await this.#recover();
    return this.#origin;
  }

  /** After an agent crash: a fresh runtime through the same ladder. */
  async #recover(): Promise<void> {
    this.#taps.release();
    await this.runtime.close().catch(() => undefined);
    this.currentRuntime = this.opts.createRuntime();
    this.#ledger?.attach(this.currentRuntime, () => this.sessionId);
    await this.#attach(this.runtime);
  }

  async #attach(runtime: AgentRuntime, signal?: AbortSignal): Promise<void> {
    this.#setStatus("starting");
    const previous = this.sessionId;
    const info = await untilAborted(runtime.ensureSession(previous ? { resumeSessionId: previous } : {}), signal);
    const opened = await openedPatch(this.live.metadata, info, runtime);
    this.sessionId = info.sessionId;
    this.#info = info;
    if (info.origin === "new") {
      const records = this.recorded ? (await this.opts.store.readExisting(this.threadId)).records : [];
      this.#seed = buildSeedText(records);
      this.#origin = this.#seed ? "seeded" : "new";
    } else this.#origin = info.origin;
    this.live.patch(opened); // a no-op when nothing changed
    this.live.sessionOpened(info.sessionId, this.#origin, agentInfoOf(runtime));
    this.#taps.follow(runtime, info.sessionId);
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
