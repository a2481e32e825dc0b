/**
 * The thread panel's view model: folds `RuntimeEvent`s into display entries. Pure (no DOM), shared by the
 * webview and unit tests. Streaming text is appended to the last entry of the same stream; tool calls are
 * keyed by id and replaced in place; every change bumps the entry's `version` so the renderer redraws only
 * what changed.
 */
import type { PermissionDecision, RuntimeEvent, ToolCallState } from "../../core/model/events";
import type { PermissionView } from "./protocol";

export type EntryBody =
  | { kind: "user"; text: string }
  | { kind: "agent"; text: string }
  | { kind: "thought"; text: string }
  | { kind: "tool"; call: ToolCallState }
  | { kind: "plan"; entries: { content: string; status: string; priority?: string }[] }
  | { kind: "notice"; severity: string; title: string; description?: string }
  | { kind: "error"; message: string }
  | { kind: "done"; stopReason: string }
  | { kind: "decision"; decision: PermissionDecision }
  | { kind: "prompt"; view: PermissionView; answered?: string | null };

export type Entry = EntryBody & { version: number };

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

  apply(ev: RuntimeEvent): void {
    switch (ev.type) {
      case "text": {
        const kind = ev.stream === "thought" ? "thought" : "agent";
        const last = this.entries.length - 1;
        const prev = this.entries[last];
        if (prev && prev.kind === kind) {
          prev.text += ev.text;
          this.#touch(last);
        } else this.#add({ kind, text: ev.text });
        break;
      }
      case "user_text":
        this.#add({ kind: "user", text: ev.text });
        break;
      case "tool_call": {
        const at = this.#tools.get(ev.toolCall.toolCallId);
        if (at === undefined) this.#tools.set(ev.toolCall.toolCallId, this.#add({ kind: "tool", call: ev.toolCall }));
        else {
          (this.entries[at] as Entry & { kind: "tool" }).call = ev.toolCall;
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
        this.#add({ kind: "done", stopReason: ev.stopReason });
        break;
      case "permission":
        if (ev.decision.decidedBy !== "user") this.#add({ kind: "decision", decision: ev.decision });
        break;
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

  addPrompt(view: PermissionView): void {
    if (this.#prompts.has(view.requestId)) return;
    this.#prompts.set(view.requestId, this.#add({ kind: "prompt", view }));
  }

  resolvePrompt(requestId: string, optionId: string | null): void {
    const at = this.#prompts.get(requestId);
    if (at === undefined) return;
    (this.entries[at] as Entry & { kind: "prompt" }).answered = optionId;
    this.#touch(at);
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
