/**
 * The events of a live session a panel opening now needs besides the stored thread: those since the last
 * checkpoint (the end of the last turn, when the thread file holds everything before it), coalesced so a long
 * turn stays small (consecutive text chunks of one message become one event, a tool call's snapshots its
 * latest), and capped at `maxEvents` (the oldest go, replaced by a notice; the thread file has them once the
 * turn ends). The latest state events (modes, options, commands, usage, title) are kept apart for the pickers
 * and meters. Pure: no vscode.
 */
import type { RuntimeEvent } from "../core/model/events";

export const TAIL_MAX_EVENTS = 2000;
const STATE = new Set<RuntimeEvent["type"]>(["config_options", "mode", "commands", "usage", "session_info"]);

export class LiveTail {
  #events: RuntimeEvent[] = [];
  /** Index in `#events` of each tool call's snapshot. */
  #tools = new Map<string, number>();
  readonly #state = new Map<RuntimeEvent["type"], RuntimeEvent>();
  #dropped = 0;
  /** Byte offset of the thread file the tail follows; undefined: the tail is the whole history. */
  checkpoint: number | undefined;

  constructor(
    history: readonly RuntimeEvent[] = [],
    readonly maxEvents: number = TAIL_MAX_EVENTS,
  ) {
    for (const e of history) this.push(e);
  }

  /** Events since the checkpoint (coalesced). */
  get events(): readonly RuntimeEvent[] {
    return this.#events;
  }

  /** The latest state events (one per type) then the tail: what late views (pickers, meters) read. */
  get withState(): RuntimeEvent[] {
    return [...this.#state.values(), ...this.#events];
  }

  push(e: RuntimeEvent): void {
    if (STATE.has(e.type)) this.#state.set(e.type, e);
    const last = this.#events.at(-1);
    if (e.type === "text" && last?.type === "text" && last.stream === e.stream && last.messageId === e.messageId) {
      this.#events[this.#events.length - 1] = { ...last, text: last.text + e.text };
      return;
    }
    if (e.type === "tool_call") {
      const at = this.#tools.get(e.toolCall.toolCallId);
      if (at !== undefined) return void (this.#events[at] = e);
      this.#tools.set(e.toolCall.toolCallId, this.#events.length);
    }
    this.#events.push(e);
    if (this.#events.length > this.maxEvents) this.#trim();
  }

  /** The thread file holds everything up to `offset`: the tail starts afresh. */
  reset(offset: number): void {
    this.checkpoint = offset;
    this.#events = [];
    this.#tools.clear();
    this.#dropped = 0;
  }

  #trim(): void {
    const body = this.#dropped ? this.#events.slice(1) : this.#events; // without our earlier notice
    const drop = Math.ceil(this.maxEvents / 4);
    this.#dropped += drop;
    const kept = body.slice(drop);
    const notice: RuntimeEvent = {
      type: "notice",
      severity: "info",
      title: `${this.#dropped} earlier updates of this turn are not shown here`,
      description: "They are in the thread: reopen it once the turn ends to see them.",
    };
    this.#events = [notice, ...kept];
    this.#tools.clear();
    this.#events.forEach((ev, i) => ev.type === "tool_call" && this.#tools.set(ev.toolCall.toolCallId, i));
  }
}
