/**
 * What a live session holds of its events, bounded however long it runs (pure, no vscode):
 * - `sinceCheckpoint`: the events since the last checkpoint (a turn's end, when the thread file holds everything
 *   before it); a panel opening now renders the stored thread up to the checkpoint and then these.
 * - `window`: the latest events (what views and tests read as `LiveSession.events`), not reset by checkpoints.
 * Both coalesce (consecutive text chunks of one message become one event, a tool call keeps its latest snapshot
 * in place) and keep at most `maxEvents`: the oldest go, replaced by one notice. Once the window dropped events,
 * the latest state events (modes, options, commands, usage, title) are put in front for the pickers and meters.
 */
import type { RuntimeEvent } from "../core/model/events";

export const TAIL_MAX_EVENTS = 1000;
const STATE = new Set<RuntimeEvent["type"]>(["config_options", "mode", "commands", "usage", "session_info"]);

class Coalesced {
  events: RuntimeEvent[] = [];
  /** Index in `events` of each tool call's snapshot. */
  #tools = new Map<string, number>();
  dropped = 0;

  constructor(private readonly maxEvents: number) {}

  push(e: RuntimeEvent): void {
    const last = this.events.at(-1);
    if (e.type === "text" && last?.type === "text" && last.stream === e.stream && last.messageId === e.messageId) {
      this.events[this.events.length - 1] = { ...last, text: last.text + e.text };
      return;
    }
    if (e.type === "tool_call") {
      const at = this.#tools.get(e.toolCall.toolCallId);
      if (at !== undefined) return void (this.events[at] = e);
      this.#tools.set(e.toolCall.toolCallId, this.events.length);
    }
    this.events.push(e);
    if (this.events.length > this.maxEvents) this.#trim();
  }

  clear(): void {
    this.events = [];
    this.#tools.clear();
    this.dropped = 0;
  }

  #trim(): void {
    const body = this.dropped ? this.events.slice(1) : this.events; // without our earlier notice
    const drop = Math.ceil(this.maxEvents / 4);
    this.dropped += drop;
    const notice: RuntimeEvent = {
      type: "notice",
      severity: "info",
      title: `${this.dropped} earlier updates are not shown here`,
      description: "They are in the thread: reopen it once the turn ends to see them.",
    };
    this.events = [notice, ...body.slice(drop)];
    this.#tools.clear();
    this.events.forEach((ev, i) => ev.type === "tool_call" && this.#tools.set(ev.toolCall.toolCallId, i));
  }
}

export class LiveTail {
  readonly #since: Coalesced;
  readonly #window: Coalesced;
  readonly #state = new Map<RuntimeEvent["type"], RuntimeEvent>();
  /** Byte offset of the thread file `sinceCheckpoint` follows; undefined: no checkpoint yet (it is everything). */
  checkpoint: number | undefined;

  constructor(
    history: readonly RuntimeEvent[] = [],
    readonly maxEvents: number = TAIL_MAX_EVENTS,
  ) {
    this.#since = new Coalesced(maxEvents);
    this.#window = new Coalesced(maxEvents);
    for (const e of history) this.push(e);
  }

  /** Events since the checkpoint (coalesced, capped). */
  get sinceCheckpoint(): readonly RuntimeEvent[] {
    return this.#since.events;
  }

  /** The latest events (coalesced, capped), the latest state events in front once older ones were dropped. */
  get window(): RuntimeEvent[] {
    const events = this.#window.events;
    if (!this.#window.dropped) return [...events];
    return [...[...this.#state.values()].filter((s) => !events.includes(s)), ...events];
  }

  push(e: RuntimeEvent): void {
    if (STATE.has(e.type)) this.#state.set(e.type, e);
    this.#since.push(e);
    this.#window.push(e);
  }

  /** The thread file holds everything up to `offset`: `sinceCheckpoint` starts afresh. */
  reset(offset: number): void {
    this.checkpoint = offset;
    this.#since.clear();
  }
}
