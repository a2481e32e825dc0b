/**
 * The thread events of the sessions the thread host runs, as this window sees them (#35 item 4: the extension's
 * `onThreadEvent` beside the window's own sessions), in the host's shapes. The host's `events` pushes come through
 * the window's connection (host-link.ts), each once. What a connection cannot carry is made up from the host's
 * status and the thread's records (core/host/missed-events.ts), never twice:
 *
 * - a thread first seen in the host's status (it started before this window connected) is announced `started`
 *   then, and its pending question `needs_input`; its earlier turns are not replayed (as `acp-threads events
 *   --follow` starts at its subscription);
 * - across a reconnect (the connection closed: the host dropped this window or left), each thread followed gets the
 *   turns whose record was made after the last turn heard and before the new subscription, a question answered
 *   meanwhile its `answered`, and a thread the host no longer holds its `ended`. The cursor is each thread's last
 *   turn time: a turn's record is made before the host announces it, so a turn heard is never read back.
 *
 * Each host this window reaches is followed alike (`followHosts`): the user's thread host at its socket and the
 * window's own in-process host (window-host.ts), whose connection is lost only when the window stops it.
 */
import * as vscode from "vscode";
import type { HostConnection } from "../../core/host/client";
import { missedAnswer, missedEnd, missedTurns } from "../../core/host/missed-events";
import type { HostEvent, HostSessionInfo, PendingQuestion } from "../../core/host/protocol";
import type { ThreadRecord } from "../../core/model/records";
import { background } from "../../core/util/unexpected";
import type { HostLink } from "./host-link";

export interface HostedEventsDeps {
  link: HostLink;
  /** A thread's records (undefined: not found); read asynchronously, after a reconnect only. */
  records(threadId: string): Promise<readonly ThreadRecord[] | undefined>;
}

/** A thread of the host this window follows the events of. */
interface Followed {
  /** The time of the last turn heard (or of the subscription that first saw the thread): the catch-up's cursor. */
  turnsAt: string;
  /** Its question announced and not yet answered. */
  asked: PendingQuestion | undefined;
  /** When it was first heard, in `#heardCount`'s order: a status asked for before that cannot speak for it. */
  firstHeard: number;
}

const now = () => new Date().toISOString();

/**
 * How many ended threads are remembered to drop their echoes (what the host sent of a thread right after its end):
 * the most recent ones. A window open for weeks hears thousands of ends; the echo of one comes at once.
 */
export const ENDED_REMEMBERED = 1000;

/**
 * The events of every host this window reaches (the user's thread host at its socket, the window's own in-process
 * host): one stream, each host's followed by its own HostedEvents (a thread is held by one host at a time).
 */
export function followHosts(
  links: readonly (HostLink | undefined)[],
  records: HostedEventsDeps["records"],
): { onEvent: vscode.Event<HostEvent> } & vscode.Disposable {
  const each = links.flatMap((link) => (link ? [new HostedEvents({ link, records })] : []));
  return {
    onEvent: (listener, thisArg, disposables) => {
      const sub = vscode.Disposable.from(...each.map((e) => e.onEvent(listener, thisArg)));
      disposables?.push(sub);
      return sub;
    },
    dispose: () => each.forEach((e) => e.dispose()),
  };
}

export class HostedEvents implements vscode.Disposable {
  readonly #emitter = new vscode.EventEmitter<HostEvent>();
  readonly onEvent = this.#emitter.event;
  readonly #threads = new Map<string, Followed>();
  /** Threads whose end was told (heard or made up): what comes after, until a new start, is its echo. */
  readonly #ended = new Set<string>();
  /** The connection whose events this follows (a new one is caught up with). */
  #conn: HostConnection | undefined;
  /** A connection closed since the last catch-up: what happened meanwhile is read back. */
  #gap = false;
  /** The sessions of the host's last status while connected (none: the link lets go, the host holds nothing). */
  #syncing: Promise<void> = Promise.resolve();
  readonly #subs: vscode.Disposable[];
  /** How many threads were first heard of so far (each Followed's `firstHeard`). */
  #heardCount = 0;

  constructor(private readonly deps: HostedEventsDeps) {
    this.#subs = [
      deps.link.onPush((m) => m.t === "event" && this.#heard(m.event)),
      deps.link.onDidSync(() => this.#changed()),
      deps.link.onDidLose((e) => this.#lost(e.letGo)),
    ];
  }

  /** An event the host pushed: delivered once (a thread already announced started is not started again). */
  #heard(e: HostEvent): void {
    const id = e.threadId;
    if (e.kind === "started") {
      if (this.#threads.has(id)) return;
      this.#ended.delete(id);
    } else if (this.#ended.has(id)) return;
    const f = this.#threads.get(id) ?? { turnsAt: e.at, asked: undefined, firstHeard: ++this.#heardCount };
    this.#threads.set(id, f);
    if (e.kind === "needs_input") {
      if (f.asked?.requestId === e.question.requestId) return;
      // a permission question's answer is read back from its record after a reconnect; an elicitation has none
      if (!e.elicitation) f.asked = e.question;
    } else if (e.kind === "answered") {
      if (f.asked?.requestId === e.requestId) f.asked = undefined;
    } else if (e.kind === "turn_ended") {
      if (e.at > f.turnsAt) f.turnsAt = e.at;
    } else if (e.kind === "ended") {
      this.#threads.delete(id);
      this.#ended.add(id);
      if (this.#ended.size > ENDED_REMEMBERED) this.#ended.delete(this.#ended.values().next().value!);
    }
    this.#emitter.fire(e);
  }

  #changed(): void {
    if (!this.deps.link.connected) return;
    this.#inTurn(() => this.#sync());
  }

  /** Catch-ups run one at a time, in order. */
  #inTurn(fn: () => Promise<void>): void {
    const next = this.#syncing.then(fn);
    this.#syncing = next.catch(() => undefined);
    background(next, "catching up with the thread host's events");
  }

  /** A new connection: subscribed (its reply comes after every push before it), then caught up from the status. */
  async #sync(): Promise<void> {
    const c = await this.deps.link.connection();
    if (!c || c === this.#conn || c.closed) return;
    this.#conn = c;
    const since = now();
    // the link subscribed already (the host keeps one subscription per client); a connection that closes meanwhile
    // is caught up with by the next one
    const subscribed = await c.request({ t: "events" }).catch(() => undefined);
    // a thread first heard of after the status was asked for (its `started` may come in the same read as the status's
    // reply, before this continues) is not in that status: the status must not end it
    const asked = this.#heardCount;
    const r = subscribed && (await c.request({ t: "status" }).catch(() => undefined));
    if (r?.t !== "status") return;
    const gap = this.#gap;
    this.#gap = false;
    await this.#catchUp(r.status.sessions, gap, since, asked);
  }

  /**
   * `sessions`: the host's (one ending is still held: its `ended` comes next), as a status asked for when `asked`
   * threads had been heard of (the ones heard of since are live: the host told them after that status).
   */
  async #catchUp(
    sessions: readonly HostSessionInfo[],
    gap: boolean,
    since: string,
    asked = Number.POSITIVE_INFINITY,
  ): Promise<void> {
    const held = new Map(sessions.map((s) => [s.threadId, s]));
    for (const [threadId, f] of [...this.#threads]) {
      if (f.firstHeard > asked) continue;
      const s = held.get(threadId);
      if (s && (!gap || s.state === "ended")) continue;
      const records = (await this.deps.records(threadId).catch(() => undefined)) ?? [];
      if (this.#threads.get(threadId) !== f) continue; // its end (or a new start) was heard meanwhile
      for (const e of missedTurns(threadId, records, f.turnsAt, since)) this.#heard(e);
      if (f.asked && f.asked.requestId !== s?.pending?.requestId) {
        const answered = missedAnswer(records, f.asked);
        if (answered) this.#heard(answered);
        else f.asked = undefined;
      }
      if (!s) this.#heard(missedEnd(threadId, records, now()));
    }
    for (const s of sessions) {
      if (s.state === "ended") continue;
      if (!this.#threads.has(s.threadId)) this.#heard({ kind: "started", threadId: s.threadId, at: since });
      if (s.pending) this.#heard({ kind: "needs_input", threadId: s.threadId, at: now(), question: s.pending });
    }
  }

  /**
   * The connection closed. Threads still followed may have gone on without this window: it looks for the host at
   * once (connecting only when its socket is there); a host that left ended them all, and so did one the link let
   * go of because it held nothing (looking again would only be let go again). A connection that closed otherwise
   * is looked for again even when the last status listed nothing: a thread heard started since may not be in it.
   * The window's own host is lost only when the window stopped it: its threads ended with it (looking would make a
   * new one).
   */
  #lost(letGo: boolean): void {
    this.#conn = undefined;
    if (!this.#threads.size) return;
    this.#gap = true;
    if (letGo || this.deps.link.inProcess) return this.#inTurn(() => this.#left());
    background(
      this.deps.link.check().then(() => {
        if (!this.deps.link.connected) this.#inTurn(() => this.#left());
      }),
      "looking for the thread host again",
    );
  }

  /** No host answers: the threads followed ended while this window was not connected. */
  async #left(): Promise<void> {
    if (this.deps.link.connected) return;
    this.#gap = false;
    await this.#catchUp([], true, now());
  }

  dispose(): void {
    for (const s of this.#subs.splice(0)) s.dispose();
    this.#emitter.dispose();
  }
}
