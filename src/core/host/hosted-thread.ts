/**
 * One thread the host holds: its records fed to the attached clients in order, numbered (a client's cursor is the
 * index of the next record it has not seen), and the permission question waiting for an answer.
 *
 * The session writes the thread file synchronously and hands the feed what it appended (`appended`, from the
 * thread handle's append): those go out at once, with no file read. The feed reads the file for what it was not
 * handed (the records written before the host held the thread, a range it missed while a read was under way,
 * and, for a runner that hands nothing, after each session event and every FEED_POLL_MS). Everything is keyed
 * by byte offset, so a record comes in once, by one path. Reads and attaches run one after the other on one
 * chain; an attach from cursor N gets records N..count from the file (again while live records came in during
 * its read), then every later batch: nothing lost or doubled at the seam.
 *
 * Questions and elicitations (host-asks.ts): the first answer from a client wins; every client of the thread is told
 * who answered. An elicitation is answered only by a client attached to the thread, with an answer that fits it.
 */
import { randomUUID } from "node:crypto";
import type { Duplex } from "node:stream";
import type { AuthStatus } from "../acp/auth-status";
import type { ElicitationAnswer, ElicitationPrompt } from "../model/elicitation";
import type { ThreadRecord } from "../model/records";
import type { PermissionAsker, PermissionPrompt } from "../ports";
import { readRecordsAsync } from "../store/jsonl-reader";
import { background, onUnexpectedError } from "../util/unexpected";
import { announced, questionAnswered } from "./question-events";
import { HostAsks } from "./host-asks";
import {
  checkedElicitationAnswer,
  elicitationAnswered,
  elicitationNeedsInput,
  pendingElicitation,
} from "./host-elicitation";
import { PROPOSAL_MAX_CHARS, type HostPush, type HostWatchdog, type PendingQuestion } from "./protocol";
import { HostedSession } from "./hosted-session";
import type { ThreadControl } from "./thread-control";

export const FEED_POLL_MS = 250;
type RecordsPush = Extract<HostPush, { t: "records" }>;
/** Records go out in messages of about this size, well under the wire's cap. */
export const BATCH_BYTES = 256 * 1024;

export interface HostedThreadOptions {
  threadId: string;
  path: string;
  control: ThreadControl;
  /** Sends to one client; returns the bytes its socket holds unsent. */
  push: (sock: Duplex, msg: HostPush) => number;
  /** A client holding more than this unsent gets no more records until it drained; then it catches up from the file. */
  cap: number;
  /** Tells the host's event subscribers (a `watchdog` push: and the thread's attached clients). */
  announce: (msg: HostPush) => void;
  /** How long the run may wait idle with no client attached before it is stopped; none: no limit. */
  idleMs?: number;
  /** A "Run once" run (DetachedRun.once): said in the host's status, so every client's box takes no input. */
  once?: boolean;
  /** The agent's id as the starting client named it (DetachedRun.agentLabel), said in the host's status. */
  agentId?: string;
  /** The agent's display name as the starting client named it (DetachedRun.agentLabel), said in the host's status. */
  agentName?: string;
  /** Its agent runs in the OS sandbox (the run asked for one; it opened, so it was made), said in the host's status. */
  sandboxed?: boolean;
  /** Its watchdog climbs the retry ladder by itself (DetachedRun.retry `auto`), said in the host's status. */
  autoRetry?: true;
}

export class HostedThread {
  /** Each attached client's cursor; `behind`: it holds `cap` bytes unsent, it catches up once drained. */
  readonly clients = new Map<Duplex, { next: number; behind: boolean; elicits?: boolean }>();
  #count = 0;
  #offset = 0;
  #chain: Promise<void> = Promise.resolve();
  #scheduled = false;
  /** A file read is under way: what is handed meanwhile is left to the reads (keyed by offset, never twice). */
  #reading = false;
  /** The runner hands the appended records: no read after each event, no poll. */
  #live = false;
  readonly #asks: HostAsks;
  /** The asks whose send to the clients attached then has run (an attach sends a client those still waiting). */
  readonly #sent = new WeakSet<HostPush>();
  /** Who answered each question the run asked (the record names them). */
  readonly #answeredBy = new WeakMap<PermissionPrompt, string>();
  #watchdog: HostWatchdog | undefined;
  #ended: Extract<HostPush, { t: "ended" }> | undefined;
  /** The run's session state and its controls (hosted-session.ts): re-sent on attach. */
  readonly session: HostedSession;
  #state: "working" | "idle" | "ended" = "working";
  /** Counts down to stopping a run that waits idle with no client attached. */
  #unattended: NodeJS.Timeout | undefined;
  readonly #timer: NodeJS.Timeout;

  constructor(readonly opts: HostedThreadOptions) {
    this.#asks = new HostAsks({
      threadId: opts.threadId,
      send: (msg) =>
        background(
          this.#queue(() => {
            this.#sent.add(msg);
            for (const c of this.clients.keys()) this.opts.push(c, msg);
          }),
          "asking a thread's clients",
        ),
      tell: (msg) => {
        for (const c of this.clients.keys()) this.opts.push(c, msg);
      },
    });
    this.session = new HostedSession({
      threadId: opts.threadId,
      live: () => this.state !== "ended",
      controls: () => this.control.session,
      tell: (msg) => {
        for (const c of this.clients.keys()) this.opts.push(c, msg);
      },
    });
    this.#timer = setInterval(() => this.#live || this.pump(), FEED_POLL_MS);
    this.pump(); // what the thread file holds already
  }

  get threadId(): string {
    return this.opts.threadId;
  }
  get control(): ThreadControl {
    return this.opts.control;
  }
  /** `idle`: the run waits for its next prompt (a run kept open between prompts). */
  get state(): "working" | "idle" | "ended" {
    return this.#state;
  }
  set state(state: "working" | "idle" | "ended") {
    this.#state = state;
    this.#watchIdle();
  }

  /** Waits idle with no client attached: it does not keep the host, and it is stopped after `idleMs`. */
  get unattended(): boolean {
    return this.#state === "idle" && this.clients.size === 0;
  }

  /** A client stops following the thread (a detach, its connection gone). */
  detach(sock: Duplex): void {
    this.clients.delete(sock);
    this.#watchIdle();
  }

  #watchIdle(): void {
    if (!this.unattended || this.opts.idleMs === undefined) {
      clearTimeout(this.#unattended);
      this.#unattended = undefined;
    } else
      this.#unattended ??= setTimeout(() => {
        this.#unattended = undefined;
        if (this.unattended) this.control.stop?.();
      }, this.opts.idleMs);
  }

  /** The question waiting, as status and events tell it (question-events.ts: without the edit, names as labels). */
  get pending(): PendingQuestion | undefined {
    const q = this.#asks.pending.find((p) => p.t === "question");
    return q && announced(q.question);
  }

  /** The login state its agent last reported, while the run lives. */
  get authStatus(): AuthStatus | undefined {
    return this.session.current?.authStatus;
  }

  /** Its watchdog, while it has something to show (an alert, a rung taken or under way). */
  get watchdog(): HostWatchdog | undefined {
    const w = this.#watchdog;
    return w && (w.alert || w.running || w.history.length) ? w : undefined;
  }

  /** The session emitted an update: without handed records, its record is read from the file. */
  updated(): void {
    if (!this.#live) this.pump();
  }

  /**
   * Records the session just appended at bytes `start`..`end`: sent at once when they follow what the feed has;
   * else (a read under way, or a range not read yet) the file read picks them up.
   */
  appended(records: ThreadRecord[], start: number, end: number): void {
    this.#live = true;
    if (this.#reading || this.#scheduled || start !== this.#offset) return this.pump();
    this.#take(records, end);
  }

  #take(records: ThreadRecord[], end: number): void {
    const from = this.#count;
    this.#count += records.length;
    this.#offset = end;
    for (const msg of this.#batches(from, records)) for (const c of this.clients.keys()) this.#feed(c, msg);
  }

  /** Reads what the session appended and sends it to every attached client (coalesced: one read at a time). */
  pump(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    background(
      this.#queue(async () => {
        this.#scheduled = false;
        this.#reading = true;
        const read = await readRecordsAsync(this.opts.path, this.#offset).catch(() => undefined);
        this.#reading = false;
        if (read?.records.length) this.#take(read.records, read.endOffset);
      }),
      "feeding a thread's clients",
    );
  }

  /** `records` (the first numbered `from`) cut into messages of about BATCH_BYTES (one record at least). */
  *#batches(from: number, records: ThreadRecord[]): Generator<RecordsPush> {
    let start = 0;
    let bytes = 0;
    for (let i = 0; i < records.length; i++) {
      bytes += JSON.stringify(records[i]).length;
      if (bytes < BATCH_BYTES && i < records.length - 1) continue;
      yield { t: "records", threadId: this.threadId, from: from + start, records: records.slice(start, i + 1) };
      start = i + 1;
      bytes = 0;
    }
  }

  /** Runs `step` after the feed's earlier steps (a failed step is reported; the feed goes on). */
  #queue(step: () => void | Promise<void>): Promise<void> {
    this.#chain = this.#chain.then(step).catch((err) => onUnexpectedError("feeding a thread's clients", err));
    return this.#chain;
  }

  /** A batch to one client: held back while it is behind; once over the cap it waits for its drain. */
  #feed(sock: Duplex, msg: RecordsPush): void {
    const state = this.clients.get(sock);
    if (!state || state.behind) return;
    state.next = msg.from + msg.records.length;
    if (this.opts.push(sock, msg) > this.opts.cap) this.#fallBehind(sock, state);
  }

  #fallBehind(sock: Duplex, state: { behind: boolean }): void {
    state.behind = true;
    sock.once("drain", () => {
      background(
        this.#queue(() => this.#catchUp(sock)),
        "catching a client up",
      );
    });
  }

  /** Sends a client the records from its cursor to what the others have, from the file, as its socket takes them. */
  async #catchUp(sock: Duplex): Promise<void> {
    const state = this.clients.get(sock);
    if (!state || sock.destroyed) return;
    // records handed live while the file was read are past what the read saw: read again for them
    while (state.next < this.#count) {
      const read = await readRecordsAsync(this.opts.path, 0).catch(() => undefined);
      const records = read?.records.slice(state.next, this.#count) ?? [];
      if (!records.length || sock.destroyed) break;
      for (const msg of this.#batches(state.next, records)) {
        state.next = msg.from + msg.records.length;
        if (this.opts.push(sock, msg) > this.opts.cap && state.next < this.#count) return this.#fallBehind(sock, state);
      }
    }
    state.behind = false;
    if (this.#ended) {
      this.opts.push(sock, this.#ended);
      this.clients.delete(sock);
    }
  }

  /** Sends records `from`.. to `sock`, then keeps it fed; a question waiting is sent too. */
  attach(sock: Duplex, from: number, elicits = false): Promise<void> {
    return this.#queue(async () => {
      this.clients.set(sock, { next: Math.min(from, this.#count), behind: true, ...(elicits ? { elicits } : {}) });
      this.#watchIdle();
      await this.#catchUp(sock);
      if (!this.clients.has(sock)) return;
      // an ask opened while this attach caught up is sent by its own queued send, which follows: not twice
      for (const ask of this.#asks.pending) if (this.#sent.has(ask)) this.opts.push(sock, ask);
      if (this.watchdog) this.opts.push(sock, { t: "watchdog", threadId: this.threadId, watchdog: this.watchdog });
      const state = this.session.current;
      if (state) this.opts.push(sock, { t: "session_state", threadId: this.threadId, state });
    });
  }

  /** The host's asker for this thread's run: asks every attached client and waits for the first answer. */
  asker(): PermissionAsker {
    return { ask: (p) => this.#ask(p), answeredBy: (p) => this.#answeredBy.get(p) };
  }

  #ask(p: PermissionPrompt): Promise<string | null> {
    const question: PendingQuestion = {
      threadId: this.threadId,
      requestId: randomUUID(),
      toolCallId: p.request.toolCall.toolCallId,
      ...(typeof p.request.toolCall.kind === "string" ? { toolKind: p.request.toolCall.kind } : {}),
      title: p.request.toolCall.title ?? "a tool call",
      options: p.request.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
      ...(p.proposed && (p.proposed.oldText?.length ?? 0) + p.proposed.newText.length <= PROPOSAL_MAX_CHARS
        ? { proposed: p.proposed }
        : {}),
    };
    this.updated(); // the tool call the question is about goes out first
    const answered = this.#asks.open<string>(
      question.requestId,
      { t: "question", question },
      p.signal,
      (optionId) => ({ optionId }),
      (optionId, by) => {
        if (optionId !== null) this.#answeredBy.set(p, by);
        this.opts.announce({ t: "event", event: questionAnswered(question, optionId, by, now()) });
      },
    );
    this.opts.announce({
      t: "event",
      event: { kind: "needs_input", threadId: this.threadId, at: now(), question: announced(question) },
    });
    return answered;
  }

  /**
   * The first answer wins; a later one (or none pending) is an error naming who answered. `requestId`: the question
   * the client showed: once it is settled, its answer is refused, never given to the question asked next. Without
   * it, the only question pending (refused `ambiguous` when more are). Says which question it answered.
   */
  answer(
    option: string,
    by: string,
    requestId?: string,
  ): { chosen: PendingQuestion["options"][number]; question: PendingQuestion } {
    const p = this.#asks.take("question", requestId);
    if (p.push.t !== "question") throw new Error("not a question"); // take() gives the kind asked for
    const opts = p.push.question.options;
    const chosen =
      option === "allow" || option === "reject"
        ? (opts.find((o) => o.kind === `${option}_once`) ?? opts.find((o) => o.kind.startsWith(option)))
        : opts.find((o) => o.optionId === option);
    if (!chosen)
      throw new Error(
        `no option '${option}'; the options are ${opts.map((o) => `${o.optionId} (${o.kind})`).join(", ")}`,
      );
    p.settle(chosen.optionId, by);
    return { chosen, question: p.push.question };
  }

  /**
   * Asks the attached clients the agent's elicitation; undefined when none that answers them is attached (the run
   * answers it as it would with nobody here). Resolves with the first answer; `cancel` when withdrawn.
   */
  elicit(p: ElicitationPrompt): Promise<ElicitationAnswer> | undefined {
    if (![...this.clients.values()].some((c) => c.elicits) || this.state === "ended") return undefined;
    const elicitation = pendingElicitation(this.threadId, randomUUID(), p);
    this.updated(); // what the agent said before it asked goes out first
    const push = { t: "elicitation", elicitation } as const;
    const action = (a: ElicitationAnswer | null) => a?.action ?? "cancel";
    const answered = this.#asks
      .open<ElicitationAnswer>(
        elicitation.requestId,
        push,
        p.signal,
        (a) => ({ optionId: null, action: action(a) }),
        (a, by) => this.opts.announce({ t: "event", event: elicitationAnswered(elicitation, action(a), by, now()) }),
      )
      .then((a): ElicitationAnswer => a ?? { action: "cancel" });
    this.opts.announce({ t: "event", event: elicitationNeedsInput(elicitation, now()) });
    return answered;
  }

  /** A client's answer to the elicitation `requestId`: the first that fits wins; anything else is an error. */
  elicited(requestId: string, answer: unknown, by: string): void {
    const ask = this.#asks.take("elicitation", requestId);
    if (ask.push.t !== "elicitation") throw new Error("not an elicitation"); // take() gives the kind asked for
    ask.settle(checkedElicitationAnswer(ask.push.elicitation, answer), by);
  }

  /** The run's watchdog changed: every attached client and the host's listeners hear it. */
  watch(watchdog: HostWatchdog): void {
    this.#watchdog = watchdog;
    this.opts.announce({ t: "watchdog", threadId: this.threadId, watchdog });
  }

  /** The run is over: the last records, then `ended`, go to every client; later attaches get the file. */
  end(exitCode: number, error?: string): Promise<void> {
    clearInterval(this.#timer);
    this.state = "ended"; // (its idle countdown cleared)
    this.pump();
    return this.#queue(() => {
      this.#ended = { t: "ended", threadId: this.threadId, exitCode, ...(error ? { error } : {}) };
      // a client still catching up gets `ended` once it has every record
      for (const [c, state] of this.clients) {
        if (state.behind) continue;
        this.opts.push(c, this.#ended);
        this.clients.delete(c);
      }
    });
  }
}

const now = () => new Date().toISOString();
