/**
 * The thread panel's view model: folds `RuntimeEvent`s into display entries. Pure (no DOM), shared by the
 * webview and unit tests. Streaming text is appended to the last entry of the same stream; tool calls are
 * keyed by id and replaced in place; every change bumps the entry's `version` so the renderer redraws only
 * what changed.
 */
import type { ContextRef } from "../../core/model/context";
import type { PermissionDecision, RuntimeEvent, ToolCallState } from "../../core/model/events";
import type { PermissionView } from "./protocol";

export type EntryBody =
  /** `steered`: sent into the running turn ("Send now" on a queued message), not a turn of its own. */
  | { kind: "user"; text: string; context?: ContextRef[]; steered?: boolean }
  | { kind: "agent"; text: string }
  | { kind: "thought"; text: string }
  | {
      kind: "tool";
      call: ToolCallState;
      prompt?: PromptState;
      decision?: PermissionDecision;
      /** Calls a subagent made inside this one (`parentToolCallId`), in arrival order; shown collapsed. */
      children?: ToolCallState[];
    }
  | { kind: "plan"; entries: { content: string; status: string; priority?: string }[] }
  | { kind: "notice"; severity: string; title: string; description?: string }
  | { kind: "error"; message: string }
  | { kind: "done"; stopReason: string }
  | { kind: "decision"; decision: PermissionDecision };

/** A permission request shown inside its tool call's card; `answered` is set once answered (null = dismissed). */
export interface PromptState {
  view: PermissionView;
  answered?: string | null;
  /** Who answered, when another client of the thread host did first (a name from another process: text only). */
  by?: string;
}

export type Entry = EntryBody & { version: number };
type ToolEntry = Entry & { kind: "tool" };

export interface Usage {
  used: number;
  size: number;
  cost?: { amount: number; currency: string } | null;
}

const COMPACTION_WORDS: Record<string, [string, string]> = {
  in_progress: ["info", "Compacting context…"],
  completed: ["info", "Context compacted"],
  failed: ["warning", "Context compaction failed"],
  cancelled: ["warning", "Context compaction cancelled"],
};

export class ThreadModel {
  readonly entries: Entry[] = [];
  readonly dirty = new Set<number>();
  usage: Usage | undefined;
  title: string | undefined;
  readonly #tools = new Map<string, number>();
  readonly #prompts = new Map<string, number>();
  /** Compactions (`compaction_update`) by id → their notice entry, updated in place as they progress. */
  readonly #compactions = new Map<string, number>();
  /** Nested calls: tool call id → the entry of the subagent call that shows it. */
  readonly #nested = new Map<string, number>();

  #add(body: EntryBody): number {
    const i = this.entries.push({ ...body, version: 0 } as Entry) - 1;
    this.dirty.add(i);
    return i;
  }

  #touch(i: number): void {
    this.entries[i].version++;
    this.dirty.add(i);
  }

  #lastMessageId: string | undefined;

  apply(ev: RuntimeEvent): void {
    switch (ev.type) {
      case "text": {
        const kind = ev.stream === "thought" ? "thought" : "agent";
        const last = this.entries.length - 1;
        const prev = this.entries[last];
        // chunks of one message merge; the next message (another id) is an entry of its own, so a link at the end
        // of one message never swallows the first word of the next
        const sameMessage = !ev.messageId || !this.#lastMessageId || ev.messageId === this.#lastMessageId;
        this.#lastMessageId = ev.messageId ?? this.#lastMessageId;
        if (prev && prev.kind === kind && sameMessage) {
          prev.text += ev.text;
          this.#touch(last);
        } else this.#add({ kind, text: ev.text });
        break;
      }
      case "user_text":
        this.#add({
          kind: "user",
          text: ev.text,
          ...(ev.context ? { context: ev.context } : {}),
          ...(ev.steered ? { steered: true } : {}),
        });
        break;
      case "tool_call": {
        if (this.#nest(ev.toolCall)) break;
        const at = this.#tools.get(ev.toolCall.toolCallId);
        if (at === undefined) this.#tools.set(ev.toolCall.toolCallId, this.#add({ kind: "tool", call: ev.toolCall }));
        else {
          (this.entries[at] as ToolEntry).call = ev.toolCall;
          this.#touch(at);
        }
        break;
      }
      case "plan": {
        const entries = ev.entries.map((e) => ({ content: e.content, status: e.status, priority: e.priority }));
        const last = this.entries.length - 1;
        if (this.entries[last]?.kind === "plan") {
          (this.entries[last] as Entry & { kind: "plan" }).entries = entries;
          this.#touch(last);
        } else this.#add({ kind: "plan", entries });
        break;
      }
      case "notice":
        this.#add({ kind: "notice", severity: ev.severity, title: ev.title, description: ev.description });
        break;
      case "error":
        this.#add({ kind: "error", message: ev.message });
        break;
      case "done":
        this.#settleTools(ev.stopReason === "cancelled" ? "cancelled" : "unfinished");
        this.#add({ kind: "done", stopReason: ev.stopReason });
        break;
      case "permission": {
        const at = this.#tools.get(ev.decision.toolCallId);
        // a person's answer to a request this panel showed is shown by the answered prompt; one read from the
        // thread's records (a reopened panel, a past thread) is drawn like a decision, naming who answered
        if (ev.decision.decidedBy === "user" && at !== undefined && (this.entries[at] as ToolEntry).prompt) break;
        if (at === undefined) this.#add({ kind: "decision", decision: ev.decision });
        else {
          (this.entries[at] as ToolEntry).decision = ev.decision;
          this.#touch(at);
        }
        break;
      }
      case "usage":
        this.usage = { used: ev.used, size: ev.size, cost: ev.cost };
        break;
      case "session_info":
        if (ev.title) this.title = ev.title;
        break;
      case "compaction":
        this.#compaction(ev);
        break;
      default:
        break; // commands, mode, config_options: shown by pickers/header, not as entries
    }
  }

  /**
   * Puts a subagent's call inside the card of the call it ran in, when that card exists (else it is a card of its
   * own: an unknown parent never hides a call). Returns false when the call is not nested.
   */
  #nest(call: ToolCallState): boolean {
    const id = call.toolCallId;
    let at = this.#nested.get(id);
    if (at === undefined) {
      const parent = call.parentToolCallId;
      // a subagent's subagent goes into the same card, flat
      const parentAt =
        parent === undefined || parent === id || this.#tools.has(id)
          ? undefined
          : (this.#tools.get(parent) ?? this.#nested.get(parent));
      if (parentAt === undefined) return false;
      at = parentAt;
      this.#nested.set(id, at);
    }
    const entry = this.entries[at] as ToolEntry;
    const children = entry.children ?? (entry.children = []);
    const i = children.findIndex((c) => c.toolCallId === id);
    if (i < 0) children.push(call);
    else children[i] = call;
    this.#touch(at);
    return true;
  }

  /** A compaction's one notice: "Compacting context…", then done (with its summary), failed or cancelled. */
  #compaction(ev: Extract<RuntimeEvent, { type: "compaction" }>): void {
    let at = this.#compactions.get(ev.compactionId);
    if (at === undefined) {
      at = this.#add({ kind: "notice", severity: "info", title: "Compacting context…" });
      this.#compactions.set(ev.compactionId, at);
    }
    const e = this.entries[at] as Entry & { kind: "notice" };
    if (ev.status === "summary_chunk") e.description = (e.description ?? "") + (ev.summary ?? "");
    else {
      const [severity, title] = COMPACTION_WORDS[ev.status] ?? ["info", "Compacting context…"];
      e.severity = severity;
      e.title = title;
      if (ev.summary) e.description = ev.summary;
    }
    this.#touch(at);
  }

  /** A nested call that needs a person (a permission request) moves out to a card of its own. */
  #unnest(id: string): void {
    const at = this.#nested.get(id);
    if (at === undefined) return;
    this.#nested.delete(id);
    const entry = this.entries[at] as ToolEntry;
    const call = entry.children?.find((c) => c.toolCallId === id);
    entry.children = entry.children?.filter((c) => c.toolCallId !== id);
    this.#touch(at);
    if (call) this.#tools.set(id, this.#add({ kind: "tool", call }));
  }

  /**
   * A turn ended: its calls the agent left pending or running show as cancelled (the turn was) or unfinished (a
   * rejected edit, or a command codex left running in the background); a later update of the call still applies.
   */
  #settleTools(status: "cancelled" | "unfinished"): void {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (e.kind === "user" || e.kind === "done") break;
      if (e.kind !== "tool") continue;
      const open = (c: ToolCallState) => c.status === "pending" || c.status === "in_progress";
      if (open(e.call) || e.children?.some(open)) {
        if (open(e.call)) e.call = { ...e.call, status };
        e.children = e.children?.map((c) => (open(c) ? { ...c, status } : c));
        this.#touch(i);
      }
    }
  }

  /**
   * Shows a permission request on its tool call's card. A request for a call not seen yet gets a card of its
   * own (from the request's title and kind) that the call's later updates fill in.
   */
  addPrompt(view: PermissionView): void {
    if (this.#prompts.has(view.requestId)) return;
    const id = view.toolCallId;
    if (id !== undefined) this.#unnest(id);
    let at = id === undefined ? undefined : this.#tools.get(id);
    if (at === undefined) {
      const call: ToolCallState = {
        toolCallId: id ?? `permission:${view.requestId}`,
        title: view.title,
        kind: view.kind as ToolCallState["kind"],
        status: "pending",
        content: [],
        locations: [],
      };
      at = this.#add({ kind: "tool", call });
      if (id !== undefined) this.#tools.set(id, at);
    }
    (this.entries[at] as ToolEntry).prompt = { view };
    this.#prompts.set(view.requestId, at);
    this.#touch(at);
  }

  resolvePrompt(requestId: string, optionId: string | null, by?: string): void {
    const at = this.#prompts.get(requestId);
    const prompt = at === undefined ? undefined : (this.entries[at] as ToolEntry).prompt;
    if (at === undefined || !prompt || prompt.view.requestId !== requestId) return;
    prompt.answered = optionId;
    if (by) prompt.by = by;
    this.#touch(at);
  }

  /** Requests still waiting for an answer, oldest first (keyboard shortcuts answer the first). */
  pendingPrompts(): { index: number; view: PermissionView }[] {
    const out: { index: number; view: PermissionView }[] = [];
    for (const at of this.#prompts.values()) {
      const p = (this.entries[at] as ToolEntry).prompt;
      if (p && p.answered === undefined) out.push({ index: at, view: p.view });
    }
    return out;
  }

  /** Entries whose tool calls show this terminal's output. */
  entriesWithTerminal(terminalId: string): number[] {
    const out: number[] = [];
    this.entries.forEach((e, i) => {
      const shows = (call: ToolCallState) =>
        call.content.some((c) => c.type === "terminal" && c.terminalId === terminalId);
      if (e.kind === "tool" && (shows(e.call) || e.children?.some(shows))) out.push(i);
    });
    return out;
  }
}
