/**
 * One running agent thread in the editor. Wraps the engine's `ThreadSession` (the one joiner of runtime and
 * thread: it records every turn into the thread store) and adds what the views need: a status, the session's
 * modes / config options for the pickers, and what a panel opened late renders — the stored thread up to the
 * last turn's end (read from the file, `transcript()`) plus a bounded, coalesced tail of the events since
 * (live-tail.ts): memory stays flat however long the session runs.
 * The view id is the stored thread's id. Run mode closes the agent after the first turn; session mode keeps
 * it for follow-ups typed in the panel.
 */
import { configOptionValue } from "./pickers-view";
import type * as acp from "@agentclientprotocol/sdk";
import * as vscode from "vscode";
import type { AcpAgentRuntime } from "../core/acp/agent-runtime";
import type { AuthStatus } from "../core/acp/auth-status";
import type { AgentRuntime, RuntimeOptions, SessionInfo } from "../core/acp/runtime";
import { errorMessage } from "../core/errors";
import type { AgentSpec } from "../core/model/agent";
import type { RuntimeEvent } from "../core/model/events";
import type { ContextRef, PromptPart } from "../core/model/context";
import type { BuiltPrompt, ContextSources, PromptCaps } from "../core/prompt/blocks";
import type { ThreadSession, TurnResult } from "../core/session";
import type { OpenedThread } from "../core/session/open-thread";
import { steeringUnavailable, type SteerOutcome } from "../core/acp/steering";
import type { WorktreeRef } from "../core/model/records";
import type { Supervisor } from "../core/watchdog/supervisor";
import { closeSandbox, type SandboxPlan } from "../core/sandbox/plan";
import { newThreadId } from "../core/store/thread-id";
import type { LiveStatus } from "../webview/thread/protocol";
import { background } from "../core/util/unexpected";
import { readThreadEvents } from "../core/store/thread-events";
import { openLiveThread, type LiveOpenInit } from "./live-open";
import { LiveTail } from "./live-tail";
import { displayTitle } from "./thread-title";
import { sandboxBlockedNotices } from "./sandbox";
import { resolveAgentCommand } from "./engine";

export type RunMode = "run" | "session";
/** `command`: the agent's command as looked up off the host's thread when the session opened (null: not found). */
export type RuntimeFactory = (opts: RuntimeOptions, command: string | null) => AgentRuntime;

export interface LiveSessionInit extends LiveOpenInit {
  agent: AgentSpec;
  cwd: string;
  task: string;
  /** The title until the agent names the thread (default: the task's first line). */
  title?: string;
  mode: RunMode;
  /** Everything except `agent` and `cwd`, which come from above. */
  runtimeOptions: Omit<RuntimeOptions, "agent" | "cwd">;
  /** The thread's id (also the panel map key); a new thread gets a fresh one by default. */
  threadId?: string;
  /** Events to show first (a resumed thread's history). */
  history?: RuntimeEvent[];
  /**
   * The session's OS sandbox (#34), prepared before anything starts: undefined runs unsandboxed; a rejection (a
   * sandbox asked for on a machine that cannot give one) fails the session with nothing started.
   */
  sandbox?: () => Promise<SandboxPlan | undefined>;
  /** Called once the thread session exists, before the first prompt (the hub follows the watchdog here). */
  onThread?: (session: LiveSession) => void;
}

export class LiveSession implements vscode.Disposable {
  readonly threadId: string;
  readonly agent: AgentSpec;
  readonly cwd: string;
  readonly mode: RunMode;
  /** The git worktree the thread works in (#25); undefined once discarded. */
  worktree: WorktreeRef | undefined;
  readonly startedAt = Date.now();
  title: string;
  status: LiveStatus = "starting";
  statusDetail: string | undefined;
  /** The prompt of the last turn (what a "finished" notification names). */
  lastPrompt: string | undefined;
  readonly #tail: LiveTail;
  readonly #init: LiveSessionInit;
  readonly #factory: RuntimeFactory;
  /** The agent's command as looked up when the session opened (a crash recovery's new runtime runs it too). */
  #command: string | null | undefined;
  #thread: ThreadSession | undefined;
  /** The opened thread with what serves it (steering inbox, watchdog). */
  #opened: OpenedThread | undefined;
  readonly #onEvents = new vscode.EventEmitter<RuntimeEvent[]>();
  readonly #onStatus = new vscode.EventEmitter<LiveStatus>();
  readonly #turnDone = new vscode.EventEmitter<void>();
  readonly onEvents = this.#onEvents.event;
  readonly onStatus = this.#onStatus.event;
  /** Fires when a turn (or a failed start) ends. */
  readonly onTurnDone = this.#turnDone.event;
  #working = false;
  #closed = false;
  /** The watchdog and retry ladder of this session (set once the thread opens). */
  supervisor: Supervisor | undefined;
  /** The agent's slash commands, as it advertised them last. */
  commands: acp.AvailableCommand[] = [];
  /** The login state the agent last reported (`_auth/status_update`); never stored in the thread. */
  authStatus: AuthStatus | undefined;
  readonly #onAuth = new vscode.EventEmitter<AuthStatus>();
  readonly onAuthStatus = this.#onAuth.event;
  #runtime: Partial<AcpAgentRuntime> | undefined;
  /** The OS sandbox the agent (and its restarts) runs in, once prepared. */
  #sandbox: SandboxPlan | undefined;

  constructor(init: LiveSessionInit, factory: RuntimeFactory) {
    this.#init = init;
    this.#factory = factory;
    this.threadId = init.resumeThreadId ?? init.threadId ?? newThreadId();
    this.agent = init.agent;
    this.cwd = init.cwd;
    this.mode = init.mode;
    this.worktree = init.worktree;
    this.title = displayTitle((init.title ?? init.task).split("\n")[0], init.agent.displayName);
    this.#tail = new LiveTail(init.history);
  }

  /** The latest events (coalesced, bounded; live-tail.ts), for views that follow the session (pickers, meters). */
  get events(): RuntimeEvent[] {
    return this.#tail.window;
  }

  /**
   * Everything a panel shows for this session now: the stored thread up to the last checkpoint (read
   * asynchronously) and the tail since. The snapshot is taken synchronously when called: a caller that
   * subscribes to `onEvents` in the same tick gets every later event exactly once.
   */
  async transcript(): Promise<RuntimeEvent[]> {
    const at = this.#tail.checkpoint;
    const tail = [...this.#tail.sinceCheckpoint];
    const path = this.#thread?.live.handle.path;
    if (at === undefined || !path) return tail;
    // the records up to the checkpoint may still be queued for the thread pool (JsonlWriter `pool`): they land first
    await this.flushed();
    // the thread file is gone (deleted meanwhile): the tail is what is left
    const stored = await readThreadEvents(path, at).catch(() => []);
    return [...stored, ...tail];
  }

  /**
   * Settles once the thread file holds every record of this session so far (the window queues them for the thread
   * pool): a command that reads the thread (fork, rewind, handoff) sees what the panel shows.
   */
  async flushed(): Promise<void> {
    await this.#thread?.live.handle.flushed?.().catch(() => undefined);
  }

  /** The thread file holds every event so far (a turn ended, the thread opened or closed): the tail restarts. */
  #checkpoint(): void {
    const handle = this.#thread?.live.handle;
    // this process is the thread file's only writer (it holds the lock): the bytes it wrote are the file's size,
    // no stat of the file on each turn's end (#24)
    if (handle) this.#tail.reset(handle.size);
  }

  get sessionId(): string | undefined {
    return this.#thread?.agentSessionId;
  }

  /** Last `ensureSession` answer (modes, config options) of the current runtime. */
  get info(): SessionInfo | undefined {
    return this.#thread?.sessionInfo;
  }

  get isOpen(): boolean {
    return !this.#closed;
  }

  /**
   * Agents send `available_commands_update` when they like, often right after session/new, outside any turn.
   * The runtime's own event stream carries every event, in a turn or not, followed from its creation (so none is
   * missed; a crash recovery makes a new runtime through here too): the commands are taken from it alone. Taking
   * them from the thread session during a turn lost an update that came between the prompt's start here and
   * the thread session's turn (a mention's file being read): neither path had it, and `/` listed nothing.
   * The runtime serves this one session.
   */
  #createRuntime = (): AgentRuntime => {
    const sandbox = this.#sandbox ? { sandbox: this.#sandbox } : {};
    // `prepare` (below) looked the command up before anything asks for a runtime
    if (this.#command === undefined) throw new Error(`${this.agent.displayName}: its command was not looked up yet`);
    const rt = this.#factory(
      { ...this.#init.runtimeOptions, ...sandbox, agent: this.agent, cwd: this.cwd },
      this.#command,
    );
    (rt as Partial<AcpAgentRuntime>).onEvent?.(({ event }) => {
      if (event.type !== "commands") return;
      this.commands = event.commands;
      this.#push([event]);
    });
    this.#runtime = rt as Partial<AcpAgentRuntime>;
    this.#runtime.onAuthStatus?.((status) => {
      this.authStatus = status;
      this.#onAuth.fire(status);
    });
    return rt;
  };

  /** What the agent offers for its login: `logout` (advertised) and `authenticate` (any auth method). */
  get authActions(): { login: boolean; logout: boolean } {
    const caps = this.#thread?.capabilities;
    return { login: !!caps?.authMethods.length, logout: !!caps?.agentCapabilities.auth?.logout };
  }

  /** Logs the running agent in (`authenticate`, as on `auth_required`) or out (`logout`). */
  async auth(action: "login" | "logout"): Promise<void> {
    const rt = this.#runtime;
    if (!rt?.login || !rt.logout) throw new Error(`${this.agent.displayName} is not running`);
    await (action === "login" ? rt.login() : rt.logout());
  }

  /** The agent runs in the OS sandbox (#34): the panel's header says so. */
  get sandboxed(): boolean {
    return this.#sandbox !== undefined;
  }

  /** The engine's thread session once started. */
  get thread(): ThreadSession | undefined {
    return this.#thread;
  }

  /** Starts (or resumes) the thread and runs the first task. Never throws: failures become status + events. */
  async start(task: string): Promise<void> {
    let opened: OpenedThread | undefined;
    try {
      opened = await openLiveThread(
        {
          ...this.#init,
          onProgress: (p) => {
            if (p.type === "worktree_removed") this.worktree = undefined;
            this.#init.onProgress?.(p);
          },
        },
        {
          agent: this.agent,
          cwd: this.cwd,
          title: this.title,
          threadId: this.threadId,
          createRuntime: this.#createRuntime,
          prepare: async () => {
            this.#sandbox = await this.#init.sandbox?.();
            if (this.#sandbox) sandboxBlockedNotices(this.#sandbox, (notice) => this.#push([notice]));
            // the PATH walk off the host's thread; not found still fails where the runtime is made, as before
            this.#command = await resolveAgentCommand(this.agent, this.cwd, this.#init.runtimeOptions.env);
          },
          prompt: (text) => this.prompt(text),
        },
      );
    } catch (err) {
      this.#push([{ type: "error", message: errorMessage(err) }]);
      this.#setStatus("failed", errorMessage(err));
      this.#closed = true;
      this.#turnDone.fire();
      background(closeSandbox(this.#sandbox), "closing the sandbox's egress proxy");
      return;
    }
    // without `whenFree` (a held thread fails as locked) an open always yields a session
    if (!opened) return;
    this.#opened = opened;
    this.#thread = opened.session;
    this.supervisor = opened.supervisor;
    if (this.#thread.metadata.title) this.title = displayTitle(this.#thread.metadata.title);
    this.#checkpoint();
    this.#init.onThread?.(this);
    this.#thread.onEvent((e) => {
      if (e.type === "session_info" && e.title?.trim() && !this.#thread?.live.metadata.titleByUser)
        this.title = displayTitle(e.title);
      if (e.type === "commands") return; // the runtime's stream reports them (#createRuntime)
      this.#push([e]);
    });
    this.#setStatus("idle");
    if (task.trim()) await this.prompt(task);
    else this.#turnDone.fire();
  }

  /** The agent's prompt capabilities, known once the session is open (images, embedded context). */
  get promptCaps(): PromptCaps | undefined {
    return this.#thread?.capabilities?.agentCapabilities.promptCapabilities ?? undefined;
  }

  /** A turn is running or the session is still opening: a prompt now has to wait (the prompt box queues it). */
  get busy(): boolean {
    return this.#working || this.status === "starting";
  }

  async prompt(text: string): Promise<void> {
    const thread = this.#ready();
    await this.#runTurn(text, undefined, () => thread.prompt(text));
  }

  /**
   * A prompt with context (mentions, images) built for this agent: one it cannot take (an image for an agent
   * without images) rejects here, with nothing sent or recorded. Images are kept beside the thread.
   */
  preparePrompt(parts: readonly PromptPart[], sources: ContextSources): Promise<BuiltPrompt> {
    return this.#ready().preparePrompt(parts, sources);
  }

  /** A turn with a prepared prompt, like `prompt`. */
  async promptBuilt(built: BuiltPrompt): Promise<void> {
    const thread = this.#ready();
    await this.#runTurn(built.text, built.refs, () => thread.promptBuilt(built));
  }

  /** Why a message cannot be steered into this session's running turn now, or undefined when it can. */
  get steerBlocked(): string | undefined {
    if (!this.#thread) return "The agent is still starting: the message stays queued";
    return steeringUnavailable(this.#thread.runtime, this.agent.displayName);
  }

  /** Sends a prompt into the running turn (steering); `promptRequired`: no turn was running, nothing sent. */
  async steer(parts: readonly PromptPart[], sources: ContextSources): Promise<SteerOutcome> {
    const thread = this.#thread;
    if (this.#closed || !thread) throw new Error("This session is no longer running.");
    const built = await thread.preparePrompt(parts, sources);
    return await thread.steer(built.blocks, { recordText: built.text, recordContext: built.refs });
  }

  #ready(): ThreadSession {
    if (this.#closed || !this.#thread) throw new Error("This session is no longer running.");
    if (this.#working) throw new Error("The agent is still working on the previous message.");
    return this.#thread;
  }

  async #runTurn(text: string, context: ContextRef[] | undefined, run: () => Promise<TurnResult>): Promise<void> {
    this.#working = true;
    this.lastPrompt = text;
    this.#push([{ type: "user_text", text, ...(context?.length ? { context } : {}) }]);
    this.#setStatus("working");
    let failed: string | undefined;
    let recorded = false;
    this.supervisor?.turnStarted();
    try {
      const result = await run();
      recorded = true;
      failed = result.error;
      this.supervisor?.turnEnded(result.stopReason, result.usage);
    } catch (err) {
      this.supervisor?.turnEnded("error");
      failed = errorMessage(err);
      this.#push([{ type: "error", message: failed }]);
    } finally {
      this.#working = false;
    }
    // the turn ran through the thread session: its records are all written (a throw may have left our own
    // user_text and error unrecorded: the tail keeps them)
    if (recorded) this.#checkpoint();
    this.#setStatus(failed ? "failed" : "idle", failed);
    this.#turnDone.fire();
    if (this.mode === "run") await this.close(failed ? "failed" : "done");
  }

  async cancel(): Promise<void> {
    await this.#thread?.cancel();
  }

  async setMode(modeId: string): Promise<void> {
    await this.#thread?.setMode(modeId);
  }

  /** The new option list reaches the panel as a `config_options` event (and the thread records the model). */
  async setConfigOption(configId: string, value: string): Promise<void> {
    await this.#thread?.setConfigOption(configId, configOptionValue(this, configId, value));
  }

  /** Called by the permission broker while a request is pending. */
  setWaiting(waiting: boolean): void {
    if (waiting !== (this.status === "waiting_permission")) this.supervisor?.watchdog.waitingForUser(waiting);
    if (waiting && this.status === "working") this.#setStatus("waiting_permission");
    else if (!waiting && this.status === "waiting_permission") this.#setStatus("working");
  }

  async close(status: "idle" | "done" | "failed" = "idle"): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // the steering inbox and the watchdog stop, the agent closes
    await (this.#opened?.close(status) ?? Promise.resolve()).catch(() => undefined);
    await closeSandbox(this.#sandbox).catch(() => undefined); // the egress proxy, once the agent is gone
    this.#checkpoint();
    if (this.status !== "failed") this.#setStatus("closed");
  }

  #push(events: RuntimeEvent[]): void {
    for (const e of events) this.#tail.push(e);
    this.#onEvents.fire(events);
  }

  #setStatus(status: LiveStatus, detail?: string): void {
    this.status = status;
    this.statusDetail = detail;
    this.#onStatus.fire(status);
  }

  dispose(): void {
    background(this.close(), "closing the session");
    this.#onEvents.dispose();
    this.#onStatus.dispose();
    this.#turnDone.dispose();
    this.#onAuth.dispose();
  }
}
