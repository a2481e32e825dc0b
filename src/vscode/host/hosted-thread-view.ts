/**
 * One thread the thread host runs, as this window follows it: attached from a cursor (the index of the next
 * record not seen), its records turned into the panel's events by the same path as a followed or past thread's
 * (recordsToEvents), a batch that overlaps what was seen cut at the cursor (nothing doubled) and a connection the
 * host drops reattached from the cursor (nothing lost). Prompt, steer and cancel go to the host. The host's
 * permission questions go through this window's permission broker (the panel's inline card, the notification);
 * an answer here is sent as `answer`, and an answer from another client (first answer wins) closes the card and
 * says who answered.
 */
import * as vscode from "vscode";
import { errorMessage } from "../../core/errors";
import type { HostConnection } from "../../core/host/client";
import type { HostPush, HostReply, PendingQuestion } from "../../core/host/protocol";
import type { RuntimeEvent } from "../../core/model/events";
import type { ThreadRecord } from "../../core/model/records";
import type { PermissionAsker, PermissionPrompt } from "../../core/ports";
import { recordsToEvents } from "../../core/thread/record-events";
import { background } from "../../core/util/unexpected";
import type { ElicitationAsker } from "../../core/model/elicitation";
import { HostedElicitations } from "./hosted-elicitation";
import type { HostLink } from "./host-link";

export type HostedStatus = "working" | "idle" | "waiting_permission" | "closed";

export interface HostedThreadDeps {
  link: HostLink;
  /** This window's asker for the thread (the permission broker's). */
  asker: PermissionAsker;
  /** This window's elicitation steps (the agent's forms and web pages: hosted-elicitation.ts). */
  elicitor?: ElicitationAsker;
  /** Another client answered (or the turn was cancelled): the card closes and says who. */
  settled(prompt: PermissionPrompt, optionId: string | null, by: string): void;
  /**
   * The detach of this thread's earlier view in this window: the attach goes after it (one connection: a detach
   * handled after the attach would stop the new view's feed).
   */
  after?: Promise<void>;
}

interface Asked {
  question: PendingQuestion;
  prompt: PermissionPrompt;
  abort: AbortController;
  done: boolean;
}

export class HostedThreadView implements vscode.Disposable {
  /** The index of the next record not seen. */
  cursor = 0;
  readonly #events: RuntimeEvent[] = [];
  #turnOpen = false;
  #ended = false;
  #asked: Asked | undefined;
  #attaching: Promise<void> | undefined;
  readonly #elicitations: HostedElicitations | undefined;
  readonly #subs: vscode.Disposable[] = [];
  readonly #onEvents = new vscode.EventEmitter<RuntimeEvent[]>();
  readonly onEvents = this.#onEvents.event;
  readonly #onStatus = new vscode.EventEmitter<HostedStatus>();
  readonly onStatus = this.#onStatus.event;
  readonly #onTitle = new vscode.EventEmitter<string | null>();
  /** A title patch came (a rename by any client, the agent's title): the last of a batch; null: cleared. */
  readonly onTitle = this.#onTitle.event;

  constructor(
    readonly threadId: string,
    private readonly deps: HostedThreadDeps,
  ) {
    this.#elicitations =
      deps.elicitor &&
      new HostedElicitations({
        threadId,
        elicitor: deps.elicitor,
        connection: () => deps.link.connection(),
        changed: () => this.#onStatus.fire(this.status),
      });
    this.#subs.push(
      deps.link.hold(),
      deps.link.onPush((m) => this.#onPush(m)),
      deps.link.onDidLose(() => this.#reattach()),
    );
  }

  /** The events seen so far (the panel's transcript when it opens). */
  get events(): readonly RuntimeEvent[] {
    return this.#events;
  }

  get status(): HostedStatus {
    if (this.#ended) return "closed";
    if ((this.#asked && !this.#asked.done) || this.#elicitations?.waiting) return "waiting_permission";
    return this.#turnOpen ? "working" : "idle";
  }

  get busy(): boolean {
    return this.status === "working" || this.status === "waiting_permission";
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Attaches from the cursor (once at a time); a host that no longer holds the thread ends the view. */
  attach(): Promise<void> {
    this.#attaching ??= this.#attach().finally(() => (this.#attaching = undefined));
    return this.#attaching;
  }

  async #attach(): Promise<void> {
    await this.deps.after;
    const c = await this.deps.link.connection();
    if (!c) return this.#end();
    const r = await c
      .request({
        t: "attach",
        threadId: this.threadId,
        from: this.cursor,
        ...(this.#elicitations ? { elicits: true } : {}),
      })
      .catch(() => undefined);
    if (r?.t === "attached" && !r.live) this.#end();
  }

  #reattach(): void {
    if (this.#ended) return;
    background(this.attach(), "reattaching to a thread of the thread host");
  }

  #onPush(m: HostPush): void {
    if (m.t === "records" && m.threadId === this.threadId) this.#records(m.from, m.records);
    else if (m.t === "question" && m.question.threadId === this.threadId) this.#ask(m.question);
    else if (m.t === "elicitation" && m.elicitation.threadId === this.threadId && this.#elicitations)
      background(this.#elicitations.ask(m.elicitation), "answering the thread host's elicitation");
    else if (m.t === "settled" && m.threadId === this.threadId && m.action)
      this.#elicitations?.settled(m.requestId, m.by);
    else if (m.t === "settled" && m.threadId === this.threadId) this.#settled(m.requestId, m.optionId, m.by);
    else if (m.t === "ended" && m.threadId === this.threadId) this.#end();
  }

  /** A batch starting at record `from`: what is past the cursor, in order (a gap waits for the reattach). */
  #records(from: number, records: ThreadRecord[]): void {
    if (from > this.cursor) return;
    const fresh = records.slice(this.cursor - from);
    if (!fresh.length) return;
    this.cursor += fresh.length;
    const before = this.status;
    let title: { is: string | null } | undefined;
    for (const r of fresh)
      if (r.kind === "user_message") this.#turnOpen = true;
      else if (r.kind === "turn_end") this.#turnOpen = false;
      else if (r.kind === "meta_patch" && r.patch.title !== undefined) title = { is: r.patch.title };
    const events = recordsToEvents(fresh);
    this.#events.push(...events);
    if (events.length) this.#onEvents.fire(events);
    if (title) this.#onTitle.fire(title.is);
    if (this.status !== before) this.#onStatus.fire(this.status);
  }

  #ask(question: PendingQuestion): void {
    if (this.#asked?.question.requestId === question.requestId) return;
    const abort = new AbortController();
    const prompt: PermissionPrompt = {
      sessionId: "",
      agentId: "",
      signal: abort.signal,
      // the edit asked about: the card's Review opens the diff, as for a window session's write
      ...(question.proposed ? { proposed: question.proposed } : {}),
      request: {
        sessionId: "",
        toolCall: { toolCallId: question.toolCallId ?? `host:${question.requestId}`, title: question.title },
        options: question.options.map((o) => ({
          optionId: o.optionId,
          name: o.name,
          kind: o.kind as "allow_once",
        })),
      },
    };
    const asked: Asked = { question, prompt, abort, done: false };
    this.#asked = asked;
    this.#onStatus.fire(this.status);
    background(
      this.deps.asker.ask(prompt).then(async (option) => {
        if (asked.done || !option) return; // answered elsewhere: nothing to send
        asked.done = true;
        this.#onStatus.fire(this.status);
        const c = await this.deps.link.connection();
        await c
          ?.request({ t: "answer", threadId: this.threadId, option })
          .catch((err: unknown) => void vscode.window.showWarningMessage(`ACP Threads: ${errorMessage(err)}`));
      }),
      "answering the thread host's question",
    );
  }

  #settled(requestId: string, optionId: string | null, by: string): void {
    const asked = this.#asked;
    if (asked?.question.requestId !== requestId) return;
    const first = !asked.done;
    asked.done = true;
    if (first) this.deps.settled(asked.prompt, optionId, by);
    this.#onStatus.fire(this.status);
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#asked?.abort.abort();
    this.#elicitations?.dispose();
    this.#onStatus.fire(this.status);
  }

  /** The host runs it after the running turn (its own queue). */
  async prompt(text: string): Promise<void> {
    await this.#request({ t: "prompt", threadId: this.threadId, text });
  }

  /**
   * Into the running turn; `queued`: the text is a prompt this window queued in the host, taken out of the host's
   * queue once steered. Resolves `promptRequired` when no turn was running (nothing steered).
   */
  async steer(text: string, queued = false): Promise<string> {
    const r = await this.#request({ t: "steer", threadId: this.threadId, text, ...(queued ? { queued } : {}) });
    return r.t === "steered" ? r.outcome : "injected";
  }

  /** Takes a prompt this window queued out of the host's queue (rejects once its turn started). */
  async unqueue(text: string): Promise<void> {
    await this.#request({ t: "unqueue", threadId: this.threadId, text });
  }

  async cancel(): Promise<void> {
    await this.#request({ t: "cancel", threadId: this.threadId });
  }

  async #request(body: Parameters<HostConnection["request"]>[0]): Promise<HostReply> {
    const c = await this.deps.link.connection();
    if (!c) throw new Error("The thread host is not running anymore.");
    return await c.request(body);
  }

  /** Stops following; resolves once the host handled the detach. */
  dispose(): Promise<void> {
    const detached = this.#ended
      ? Promise.resolve()
      : this.deps.link
          .connection()
          .then((c) => c?.request({ t: "detach", threadId: this.threadId }))
          .then(
            () => undefined,
            () => undefined,
          );
    this.#asked?.abort.abort();
    this.#elicitations?.dispose();
    for (const s of this.#subs.splice(0)) s.dispose();
    this.#onEvents.dispose();
    this.#onStatus.dispose();
    this.#onTitle.dispose();
    return detached;
  }
}
