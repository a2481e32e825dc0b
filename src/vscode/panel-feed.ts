/**
 * What a thread panel (thread-panel.ts) sends its webview, and when. A redraw (the webview said "ready", or the
 * panel is refreshed) starts a new generation: a redraw that a newer one overtook is stale and stops at its next
 * await, so the panel ends as the newest redraw draws it. Messages posted while a redraw runs wait, and reach the
 * webview in order once it settled, even when a later step of it failed. A live session's events are batched
 * every 50 ms; while its transcript loads they are held, because the init message goes first.
 */
import type { RuntimeEvent } from "../core/model/events";
import type { HostMessage } from "../webview/thread/protocol";

const BATCH_MS = 50;

export class PanelFeed {
  readonly #deliver: (m: HostMessage) => void;
  readonly #note: (m: HostMessage) => void;
  /** The webview drew the last redraw's messages: posts go straight to it. */
  #ready = false;
  #backlog: HostMessage[] = [];
  #queue: RuntimeEvent[] = [];
  #timer: NodeJS.Timeout | undefined;
  /** A live panel's transcript is loading: queued events wait for the init message. */
  #holding = false;
  /** Counts redraws: only the newest one draws. */
  #generation = 0;

  /** `deliver` hands a message to the webview; `note` sees each message posted, in the order posted. */
  constructor(deliver: (m: HostMessage) => void, note: (m: HostMessage) => void) {
    this.#deliver = deliver;
    this.#note = note;
  }

  post(m: HostMessage): void {
    this.#note(m);
    if (!this.#ready) this.#backlog.push(m);
    else this.#deliver(m);
  }

  /**
   * Draws the thread again from scratch: the events queued so far are dropped (they are in the transcript the
   * redraw sends whole: nothing shows twice). `draw`'s `stale()` turns true once a newer redraw started.
   */
  async redraw(draw: (stale: () => boolean) => Promise<void>): Promise<void> {
    this.#ready = false;
    this.#backlog = [];
    const gen = ++this.#generation;
    this.#holding = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue = [];
    try {
      await draw(() => gen !== this.#generation);
    } finally {
      // what the redraw posted reaches the webview even when a later step of it failed (the error is shown): a
      // panel must never stay blank because, say, a session left memory while the panel drew it
      this.#ready = true;
      for (const b of this.#backlog.splice(0)) this.#deliver(b);
    }
  }

  /** Live events from now on wait for the init message (subscribe in the tick the transcript is snapshot). */
  hold(): void {
    this.#holding = true;
  }

  /** The init message is next: the events that arrived while the transcript loaded (sent by the next `flush`). */
  release(): readonly RuntimeEvent[] {
    this.#holding = false;
    return this.#queue;
  }

  /** Queues live events: posted together within 50 ms, or at the next `flush`. */
  enqueue(evs: readonly RuntimeEvent[]): void {
    this.#queue.push(...evs);
    this.#timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  flush(): void {
    if (this.#holding) return; // the init message goes first
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#queue.length) this.post({ type: "events", events: this.#queue.splice(0) });
  }

  dispose(): void {
    clearTimeout(this.#timer);
  }
}
