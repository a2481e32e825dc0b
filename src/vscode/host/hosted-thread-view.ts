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
import { HostRefusal } from "../../core/host/protocol-refusal";
import type { HostSessionState } from "../../core/host/session-state";
import type { WirePromptPart } from "../../core/host/wire-context";
import type { RuntimeEvent } from "../../core/model/events";
import type { ThreadRecord } from "../../core/model/records";
import type { PermissionAsker, PermissionPrompt } from "../../core/ports";
import { recordsToEvents } from "../../core/thread/record-events";
import { background } from "../../core/util/unexpected";
import type { ElicitationAsker } from "../../core/model/elicitation";
import { HostedElicitations } from "./hosted-elicitation";
import { questionPrompt } from "./hosted-question";
import type { FailedStart } from "./failed-starts";
import type { HostLink } from "./host-link";

export type HostedStatus = "working" | "idle" | "waiting_permission" | "closed";

export interface HostedThreadDeps {
  link: HostLink;
  /** This window's asker for the thread (the permission broker's). */
  asker: PermissionAsker;
  /** This window's elicitation steps (the agent's forms and web pages: hosted-elicitation.ts). */
  elicitor?: ElicitationAsker;
  /**
   * Another client answered (or the turn was cancelled): the card closes and says who; also when this window's own
   * answer lost the race (the host refused it naming the answer that won): the card shows that answer instead.
   */
  settled(prompt: PermissionPrompt, optionId: string | null, by: string): void;
  /**
   * The detach of this thread's earlier view in this window: the attach goes after it (one connection: a detach
   * handled after the attach would stop the new view's feed).
   */
  after?: Promise<void>;
  /** A run that never started (failed-starts.ts): the view is its end, with its reason; it follows nothing. */
  unstarted?: FailedStart;
}

interface Asked {
  question: PendingQuestion;
  prompt: PermissionPrompt;
  abort: AbortController;
  done: boolean;
  /** The host's `settled` push, heard while this window's own answer was on its way (who answered first). */
  heard?: { optionId: string | null; by: string };
  /** This window's answer was refused without naming who answered first (the run had ended): a push may yet. */
  unnamed?: boolean;
}

export class HostedThreadView implements vscode.Disposable {
  /** The index of the next record not seen. */
  cursor = 0;
  /** The latest question's card: its answer going to the host (answeredForTests). */
  #answering: Promise<void> | undefined;
  readonly #events: RuntimeEvent[] = [];
  #turnOpen = false;
  /** Epoch ms of the running turn's prompt record (the header's timer after a reload too). */
  #since: number | undefined;
  #ended = false;
  /** Why the host's run failed (`ended.error`). */
  #failure: string | undefined;
  /** The agent's name, from the thread's first record. */
  #agentName: string | undefined;
  /** The thread's title as its records last said it (its first record's, then each title patch's). */
  #title: string | null | undefined;
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
  #state: HostSessionState | undefined;
  #sandboxed = false;
  readonly #onSessionState = new vscode.EventEmitter<HostSessionState>();
  /** The run's session state changed (modes, config options, slash commands, login): see `sessionState`. */
  readonly onSessionState = this.#onSessionState.event;

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
    const failed = deps.unstarted;
    if (failed) {
      this.#events.push(...failed.events);
      this.#ended = true;
      this.#failure = failed.reason;
      this.#agentName = failed.thread.agent;
      return;
    }
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

  /** When the running turn started (its prompt's record); undefined between turns. */
  get since(): number | undefined {
    return this.#turnOpen ? this.#since : undefined;
  }

  /** The agent's display name (undefined until the thread's first record is seen). */
  get agentName(): string | undefined {
    return this.#agentName;
  }

  /** The thread's title as its records last said it (undefined: none seen yet; null: cleared). */
  get title(): string | null | undefined {
    return this.#title;
  }

  /** The thread's row and header when its run never started (no host holds it; a new one has no file). */
  get unstarted(): FailedStart["thread"] | undefined {
    return this.deps.unstarted?.thread;
  }

  /** Why the host's run ended with an error (undefined: it did not, or has not ended). */
  get failure(): string | undefined {
    return this.#failure;
  }

  /** Its agent runs in the OS sandbox: the host's row says so (kept once the run ended, as a window session's). */
  get sandboxed(): boolean {
    return (this.#sandboxed ||= this.deps.link.session(this.threadId)?.sandboxed === true);
  }

  /** The live run's session state as the host last pushed it; undefined before it came and once the run ended. */
  get sessionState(): HostSessionState | undefined {
    return this.#ended ? undefined : this.#state;
  }

  get busy(): boolean {
    return this.status === "working" || this.status === "waiting_permission";
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** A "Run once" run (the host's status says): its box takes no input while it runs. */
  get once(): boolean {
    return this.deps.link.session(this.threadId)?.once === true;
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
    else if (m.t === "ended" && m.threadId === this.threadId) this.#end(m.error);
    else if (m.t === "session_state" && m.threadId === this.threadId) {
      this.#state = m.state;
      this.#onSessionState.fire(m.state);
    }
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
      if (r.kind === "user_message") {
        if (!r.steered) this.#since = Date.parse(r.ts); // a turn starts with its prompt; a steered one joins it
        this.#turnOpen = true;
      } else if (r.kind === "turn_end") this.#turnOpen = false;
      else if (r.kind === "thread_start") {
        this.#agentName = r.agent.name;
        this.#title = r.title;
      } else if (r.kind === "meta_patch" && r.patch.title !== undefined) title = { is: r.patch.title };
    const events = recordsToEvents(fresh);
    this.#events.push(...events);
    if (events.length) this.#onEvents.fire(events);
    if (title) this.#onTitle.fire((this.#title = title.is));
    if (this.status !== before) this.#onStatus.fire(this.status);
  }

  #ask(question: PendingQuestion): void {
    if (this.#asked?.question.requestId === question.requestId) return;
    const abort = new AbortController();
    const prompt = questionPrompt(question, abort.signal);
    const asked: Asked = { question, prompt, abort, done: false };
    this.#asked = asked;
    this.#onStatus.fire(this.status);
    const answering = this.deps.asker.ask(prompt).then(async (option) => {
      if (asked.done || !option) return; // answered elsewhere: nothing to send
      asked.done = true;
      this.#onStatus.fire(this.status);
      const c = await this.deps.link.connection();
      await c
        ?.request({ t: "answer", threadId: this.threadId, option, requestId: question.requestId })
        .catch((err: unknown) => {
          // another client answered first: the card shows its answer and who gave it, not this one's choice. The
          // refusal names it; when the run ended meanwhile it cannot (`not_held`), but the host's `settled` push,
          // which came first on the socket, did
          const first = (err instanceof HostRefusal ? err.answered : undefined) ?? asked.heard;
          if (first) this.deps.settled(prompt, first.optionId, first.by);
          else asked.unnamed = true;
          const said = first && !(err instanceof HostRefusal && err.answered);
          void vscode.window.showWarningMessage(
            `ACP Threads: ${said ? `the question was already answered by ${first.by}` : errorMessage(err)}`,
          );
        });
    });
    this.#answering = answering;
    background(answering, "answering the thread host's question");
  }

  /** Tests: settles once the card's answer has gone to the host and its reply came back (or nothing was sent). */
  answeredForTests(): Promise<void> {
    return (this.#answering ?? Promise.resolve()).then(
      () => undefined,
      () => undefined,
    );
  }

  #settled(requestId: string, optionId: string | null, by: string): void {
    const asked = this.#asked;
    if (asked?.question.requestId !== requestId) return;
    const first = !asked.done;
    asked.done = true;
    if (first || asked.unnamed) this.deps.settled(asked.prompt, optionId, by);
    else asked.heard = { optionId, by }; // this window's answer is on its way: its reply says whether it won
    this.#onStatus.fire(this.status);
  }

  #end(error?: string): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#failure = error;
    this.#asked?.abort.abort();
    this.#elicitations?.dispose();
    this.#onStatus.fire(this.status);
  }

  /** A prompt to the host's run (after its running turn); `parts`: with its context (promptToWire). */
  async prompt(text: string, parts?: WirePromptPart[]): Promise<void> {
    await this.#request({ t: "prompt", threadId: this.threadId, text, ...(parts ? { parts } : {}) });
  }

  /**
   * Into the running turn; `queued`: the text is a prompt this window queued in the host, taken out of the host's
   * queue once steered; `parts`: with its context (promptToWire), checked by the host as a prompt's. Resolves
   * `promptRequired` when no turn was running (nothing steered).
   */
  async steer(text: string, queued = false, parts?: WirePromptPart[]): Promise<string> {
    const r = await this.#request({
      t: "steer",
      threadId: this.threadId,
      text,
      ...(queued ? { queued } : {}),
      ...(parts ? { parts } : {}),
    });
    return r.t === "steered" ? r.outcome : "injected";
  }

  /** Takes a prompt this window queued out of the host's queue (rejects once its turn started). */
  async unqueue(text: string): Promise<void> {
    await this.#request({ t: "unqueue", threadId: this.threadId, text });
  }

  async cancel(): Promise<void> {
    await this.#request({ t: "cancel", threadId: this.threadId });
  }

  /** Ends the host's run on the thread (`stop_thread`); resolves once the view has its end. */
  async stop(): Promise<void> {
    const ended = this.closed();
    await this.#request({ t: "stop_thread", threadId: this.threadId });
    await ended;
  }

  /** Resolves true once the view has the run's end; false after `withinMs` (when given) without it. */
  closed(withinMs?: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      if (this.#ended) return resolve(true);
      const timer = withinMs === undefined ? undefined : setTimeout(() => (sub.dispose(), resolve(false)), withinMs);
      const sub = this.onStatus((s) => s === "closed" && (sub.dispose(), clearTimeout(timer), resolve(true)));
    });
  }

  /** The live run's mode (the host refuses one the agent did not offer). */
  async setMode(modeId: string): Promise<void> {
    this.#whileLive("its mode");
    await this.#request({ t: "set_mode", threadId: this.threadId, modeId });
  }

  /** One of the live run's config options (its model among them). */
  async setConfig(configId: string, value: string | boolean): Promise<void> {
    this.#whileLive("its settings");
    await this.#request({ t: "set_config", threadId: this.threadId, configId, value });
  }

  /** Logs the live run's agent in or out. */
  async auth(action: "login" | "logout"): Promise<void> {
    this.#whileLive("its login");
    await this.#request({ t: "login", threadId: this.threadId, action });
  }

  #whileLive(what: string): void {
    if (this.#ended)
      throw new Error(`The thread host's run of this thread has ended: ${what} can be changed while the host runs it.`);
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
    this.#onSessionState.dispose();
    return detached;
  }
}
