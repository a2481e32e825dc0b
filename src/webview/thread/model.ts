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
  | { kind: "tool"; call: ToolCallState; prompt?: PromptState; decision?: PermissionDecision }
  | { kind: "plan"; entries: { content: string; status: string; priority?: string }[] }
  | { kind: "notice"; severity: string; title: string; description?: string }
  | { kind: "error"; message: string }
  | { kind: "done"; stopReason: string }
  | { kind: "decision"; decision: PermissionDecision };

/** A permission request shown inside its tool call's card; `answered` is set once answered (null = dismissed). */
export interface PromptState {
  view: PermissionView;
  answered?: string | null;
}

export type Entry = EntryBody & { version: number };
type ToolEntry = Entry & { kind: "tool" };

export interface Usage {
  used: number;
  size: number;
  cost?: { amount: number; currency: string } | null;
}

export class ThreadModel {
  readonly entries: Entry[] = [];
  readonly dirty = new Set<number>();
  usage: Usage | undefined;
  title: string | undefined;
  readonly #tools = new Map<string, number>();
  readonly #prompts = new Map<string, number>();

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
        if (ev.decision.decidedBy === "user") break; // shown by the answered prompt
        const at = this.#tools.get(ev.decision.toolCallId);
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
      default:
        break; // commands, mode, config_options, compaction: shown by pickers/header, not as entries
    }
  }

  /**
   * A turn ended: its calls the agent left pending or running show as cancelled (the turn was) or unfinished (a
   * rejected edit, or a command codex left running in the background); a later update of the call still applies.
   */
  #settleTools(status: "cancelled" | "unfinished"): void {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (e.kind === "user" || e.kind === "done") break;
      if (e.kind === "tool" && (e.call.status === "pending" || e.call.status === "in_progress")) {
        e.call = { ...e.call, status };
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

  resolvePrompt(requestId: string, optionId: string | null): void {
    const at = this.#prompts.get(requestId);
    const prompt = at === undefined ? undefined : (this.entries[at] as ToolEntry).prompt;
    if (at === undefined || !prompt || prompt.view.requestId !== requestId) return;
    prompt.answered = optionId;
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
      if (e.kind === "tool" && e.call.content.some((c) => c.type === "terminal" && c.terminalId === terminalId))
        out.push(i);
    });
    return out;
  }
}
