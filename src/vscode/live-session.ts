/**
 * One running agent thread in the editor: owns its `AgentRuntime`, drives turns, keeps the events seen so
 * far (so a panel opened late can render them) and reports status. Run mode closes the agent after the
 * first turn; session mode keeps it for follow-ups typed in the panel.
 */
import { randomUUID } from "node:crypto";
import * as vscode from "vscode";
import type { AcpAgentRuntime } from "../core/acp/agent-runtime";
import type { AgentRuntime, RuntimeOptions, SessionInfo } from "../core/acp/runtime";
import { errorMessage } from "../core/errors";
import type { AgentSpec } from "../core/model/agent";
import type { RuntimeEvent } from "../core/model/events";
import type { LiveStatus } from "../webview/thread/protocol";

export type RunMode = "run" | "session";
export type RuntimeFactory = (opts: RuntimeOptions) => AgentRuntime;

export interface LiveSessionInit {
  agent: AgentSpec;
  cwd: string;
  task: string;
  mode: RunMode;
  /** Everything except `agent` and `cwd`, which come from above. */
  runtimeOptions: Omit<RuntimeOptions, "agent" | "cwd">;
  threadId?: string;
  resumeSessionId?: string;
}

export class LiveSession implements vscode.Disposable {
  readonly threadId: string;
  readonly agent: AgentSpec;
  readonly cwd: string;
  readonly mode: RunMode;
  readonly startedAt = Date.now();
  title: string;
  status: LiveStatus = "starting";
  statusDetail: string | undefined;
  info: SessionInfo | undefined;
  readonly events: RuntimeEvent[] = [];
  readonly #runtime: AgentRuntime;
  readonly #onEvents = new vscode.EventEmitter<RuntimeEvent[]>();
  readonly #onStatus = new vscode.EventEmitter<LiveStatus>();
  readonly onEvents = this.#onEvents.event;
  readonly onStatus = this.#onStatus.event;
  #turn: AbortController | undefined;
  #closed = false;
  readonly #outside: { dispose(): void } | undefined;
  readonly #turnDone = new vscode.EventEmitter<void>();
  /** Fires when a turn ends (either way); tests and the CLI-like run mode wait on it. */
  readonly onTurnDone = this.#turnDone.event;

  constructor(init: LiveSessionInit, factory: RuntimeFactory) {
    this.threadId = init.threadId ?? randomUUID();
    this.agent = init.agent;
    this.cwd = init.cwd;
    this.mode = init.mode;
    this.title = init.task.split("\n")[0].slice(0, 80) || init.agent.displayName;
    this.#runtime = factory({ ...init.runtimeOptions, agent: init.agent, cwd: init.cwd });
    // Updates outside a turn (the history a session/load replays, late tool updates) still belong here.
    const withEvents = this.#runtime as Partial<Pick<AcpAgentRuntime, "onEvent">>;
    this.#outside = withEvents.onEvent?.((e) => {
      if (!this.#turn && (!this.info || e.sessionId === this.info.sessionId)) this.#push([e.event]);
    });
  }

  get sessionId(): string | undefined {
    return this.info?.sessionId;
  }

  get runtime(): AgentRuntime {
    return this.#runtime;
  }

  /** Starts the agent session and runs the first task. Never throws: failures become status + events. */
  async start(task: string, resumeSessionId?: string): Promise<void> {
    try {
      this.info = await this.#runtime.ensureSession(resumeSessionId ? { resumeSessionId } : undefined);
    } catch (err) {
      this.#push([{ type: "error", message: errorMessage(err) }]);
      this.#setStatus("failed", errorMessage(err));
      this.#turnDone.fire();
      return;
    }
    this.#setStatus("idle");
    if (task.trim()) await this.prompt(task);
    else this.#turnDone.fire();
  }

  async prompt(text: string): Promise<void> {
    if (this.#closed || !this.info) throw new Error("This session is no longer running.");
    if (this.#turn) throw new Error("The agent is still working on the previous message.");
    const turn = (this.#turn = new AbortController());
    this.#push([{ type: "user_text", text }]);
    this.#setStatus("working");
    let failed: string | undefined;
    try {
      for await (const ev of this.#runtime.runTurn(this.info.sessionId, text, { signal: turn.signal })) {
        if (ev.type === "session_info" && ev.title) this.title = ev.title;
        if (ev.type === "error") failed = ev.message;
        this.#push([ev]);
      }
    } catch (err) {
      failed = errorMessage(err);
      this.#push([{ type: "error", message: failed }]);
    } finally {
      this.#turn = undefined;
    }
    this.#setStatus(failed ? "failed" : "idle", failed);
    this.#turnDone.fire();
    if (this.mode === "run") await this.close();
  }

  async cancel(): Promise<void> {
    if (this.info && this.#turn) await this.#runtime.cancel(this.info.sessionId);
  }

  async setMode(modeId: string): Promise<void> {
    if (this.info) await this.#runtime.setMode(this.info.sessionId, modeId);
  }

  async setConfigOption(configId: string, value: string): Promise<void> {
    if (!this.info) return;
    const options = await this.#runtime.setConfigOption(this.info.sessionId, configId, value);
    this.#push([{ type: "config_options", options }]);
  }

  /** Called by the permission broker while a request is pending. */
  setWaiting(waiting: boolean): void {
    if (waiting && this.status === "working") this.#setStatus("waiting_permission");
    else if (!waiting && this.status === "waiting_permission") this.#setStatus("working");
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#runtime.close().catch(() => undefined);
    if (this.status !== "failed") this.#setStatus("closed");
  }

  get isOpen(): boolean {
    return !this.#closed;
  }

  #push(events: RuntimeEvent[]): void {
    this.events.push(...events);
    this.#onEvents.fire(events);
  }

  #setStatus(status: LiveStatus, detail?: string): void {
    this.status = status;
    this.statusDetail = detail;
    this.#onStatus.fire(status);
  }

  dispose(): void {
    void this.close();
    this.#outside?.dispose();
    this.#onEvents.dispose();
    this.#onStatus.dispose();
    this.#turnDone.dispose();
  }
}
