/**
 * Records a live session into its thread: consumes `RuntimeEvent`s and appends records. Streamed text is
 * coalesced per message (flushed on a message change, a tool call, turn end, every `flushBytes`, or after
 * `flushMs` so a crash loses at most that much). Tool calls are written once, in their final state. Derived
 * observations (title, status, counters) are written ONLY as explicit meta_patch records.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { randomUUID } from "node:crypto";
import type { ContextRef } from "../model/context";
import type { RuntimeEvent, StreamKind, ToolCallState } from "../model/events";
import { applyPatch, type ThreadMetadata } from "../model/metadata";
import {
  PROMPT_UNSENT,
  type MetadataPatch,
  type RecordInput,
  type SessionOpenRecord,
  type ThreadRecord,
  type ThreadStatus,
} from "../model/records";
import type { AgentInfoRef, TurnUsage } from "../model/usage";
import { titleFrom } from "./title";
import { optionLabel } from "../text/option-label";

/** Records just appended to a thread file, at bytes `start`..`end`. */
export type AppendListener = (records: ThreadRecord[], start: number, end: number) => void;

/** Where a live thread's records go: one open thread file (the store's ThreadHandle fills it). */
export interface ThreadSink {
  readonly threadId: string;
  readonly path: string;
  readonly closed: boolean;
  /** Bytes in the thread file, everything appended so far included (the sink is its only writer). */
  readonly size: number;
  append(input: RecordInput): unknown;
  patch(patch: MetadataPatch): unknown;
  /** Follows patches written through the sink by others (a rename while the session holds the thread). */
  onPatch?(fn: (patch: MetadataPatch) => void): () => void;
  /** Follows the records appended through the sink as they are written (ThreadHandle.onAppend). */
  onAppend?(fn: AppendListener): () => void;
  /** A durable barrier: fsync before returning. */
  sync(): void;
  /**
   * Resolves once every record appended so far is in the file (a writer on the thread pool queues them; a reader
   * of the file up to `size` waits for it). Absent: appends are written at once.
   */
  flushed?(): Promise<void>;
  /** A turn's durability point, which may be reached shortly after the call (ThreadHandle.checkpoint); else `sync`. */
  checkpoint?(): void;
  close(): void;
}

export interface LiveThreadOptions {
  flushBytes?: number;
  flushMs?: number;
}

const FINAL = new Set(["completed", "failed", "cancelled"]);

/** A thread's title from text (a pure helper, thread/title.ts, which the window shares). */
export { titleFrom } from "./title";

/** The current value of the agent's "model" config option, if it advertises one. */
export function modelOf(options: readonly acp.SessionConfigOption[] | null | undefined): string | undefined {
  const opt = options?.find((o) => o.category === "model" && o.type === "select");
  return opt && opt.type === "select" ? String(opt.currentValue) : undefined;
}

export class LiveThread {
  #meta: ThreadMetadata;
  #pending: { stream: StreamKind; messageId: string; text: string } | undefined;
  #tools = new Map<string, ToolCallState>();
  #plan: (RuntimeEvent & { type: "plan" }) | undefined;
  /** The last usage figure written (identical repeats are not written again). */
  #usageKey = "";
  #timer: NodeJS.Timeout | undefined;
  #inTurn = false;
  readonly #flushBytes: number;
  readonly #flushMs: number;

  constructor(
    readonly handle: ThreadSink,
    metadata: ThreadMetadata,
    opts: LiveThreadOptions = {},
  ) {
    this.#meta = metadata;
    handle.onPatch?.((p) => (this.#meta = applyPatch(this.#meta, p)));
    this.#flushBytes = opts.flushBytes ?? 64 * 1024;
    this.#flushMs = opts.flushMs ?? 1000;
  }

  get threadId(): string {
    return this.handle.threadId;
  }
  get metadata(): ThreadMetadata {
    return this.#meta;
  }
  get inTurn(): boolean {
    return this.#inTurn;
  }

  /** The one metadata write path: append the patch and fold it into the in-memory view. */
  patch(patch: MetadataPatch): void {
    const changed = Object.entries(patch).some(
      ([k, v]) => JSON.stringify(this.#meta[k as keyof ThreadMetadata] ?? null) !== JSON.stringify(v ?? null),
    );
    if (!changed) return;
    this.handle.patch(patch);
    this.#meta = applyPatch(this.#meta, patch);
  }

  /** Starts a turn with the user's message (and its context chips, when the prompt had any). */
  beginTurn(text: string, messageId: string = randomUUID(), context?: readonly ContextRef[]): void {
    this.#flush();
    this.#inTurn = true;
    this.#append({ kind: "user_message", messageId, text, ...(context?.length ? { context: [...context] } : {}) });
    const c = this.#meta.counters;
    const patch: MetadataPatch = { status: "live", counters: { ...c, userMessages: c.userMessages + 1 } };
    if (!this.#meta.title) {
      const title = titleFrom(text);
      if (title) patch.title = title;
    }
    this.patch(patch);
  }

  /** A message the agent took into its running turn (steering): history, but no turn of its own. */
  steered(text: string, messageId: string = randomUUID(), context?: readonly ContextRef[]): void {
    this.#flush();
    this.#append({
      kind: "user_message",
      messageId,
      text,
      steered: true,
      ...(context?.length ? { context: [...context] } : {}),
    });
    const c = this.#meta.counters;
    this.patch({ counters: { ...c, userMessages: c.userMessages + 1, steered: (c.steered ?? 0) + 1 } });
  }

  /**
   * A prompt that failed before its agent saw it, for a reason of the host's own (its image not kept: a full disk,
   * an unwritable assets folder): a turn of its own with the prompt's text, the reason as an `error` record and its
   * end (`error`), so every client following the thread shows it. Nothing when the file is closed or a turn runs.
   */
  unsentTurn(text: string, reason: string): void {
    if (this.handle.closed || this.#inTurn) return;
    this.beginTurn(text);
    this.#append({ kind: "error", message: reason, code: PROMPT_UNSENT });
    this.endTurn("error");
  }

  record(event: RuntimeEvent): void {
    switch (event.type) {
      case "text":
        return this.#text(event.stream, event.text, event.messageId);
      case "tool_call": {
        this.#flush();
        const tc = event.toolCall;
        if (FINAL.has(tc.status)) {
          this.#tools.delete(tc.toolCallId);
          this.#writeTool(tc);
        } else this.#tools.set(tc.toolCallId, tc);
        return;
      }
      case "plan":
        this.#plan = event;
        return;
      case "usage": {
        // every distinct usage_update is history: the usage ledger derives cost deltas from the series
        const rec = { used: event.used, size: event.size, ...(event.cost !== undefined ? { cost: event.cost } : {}) };
        const key = JSON.stringify(rec);
        if (key !== this.#usageKey) this.#append({ kind: "usage", ...rec });
        this.#usageKey = key;
        return;
      }
      case "config_options": {
        const model = modelOf(event.options);
        if (model) this.patch({ model });
        return;
      }
      case "session_info":
        // the agent's title replaces the first prompt's, never the user's own (a rename)
        if (typeof event.title === "string" && event.title.trim() && !this.#meta.titleByUser)
          this.patch({ title: event.title.trim() });
        return;
      case "compaction":
        if (event.summary) {
          this.#flush();
          this.#append({ kind: "compaction", windowId: event.compactionId || null, summary: event.summary });
        }
        return;
      case "permission": {
        const d = event.decision;
        this.#flush();
        this.#append({
          kind: "permission",
          toolCallId: d.toolCallId,
          title: d.title,
          toolKind: d.kind,
          optionId: d.optionId,
          optionKind: d.optionKind,
          ...(d.optionName ? { optionName: optionLabel(d.optionName) } : {}),
          decidedBy: d.decidedBy,
          ...(d.answeredBy ? { answeredBy: d.answeredBy } : {}),
          ...(d.rule ? { rule: d.rule } : {}),
          ...(d.reason ? { reason: d.reason } : {}),
          ...(d.outside?.length ? { outside: d.outside } : {}),
        });
        return;
      }
      case "notice":
        if (event.severity === "error")
          this.#append({ kind: "error", message: [event.title, event.description].filter(Boolean).join(": ") });
        return;
      case "error":
        this.#flush();
        this.#append({
          kind: "error",
          message: event.message,
          ...(event.code !== undefined ? { code: event.code } : {}),
        });
        return;
      case "done":
        return this.endTurn(event.stopReason, "idle", event.usage);
      default:
        return; // commands, mode, user_text echoes: session state, not history
    }
  }

  /** Records that an agent session was opened for this thread (cumulative agent figures restart here). */
  sessionOpened(agentSessionId: string, origin: SessionOpenRecord["origin"], agentInfo?: AgentInfoRef): void {
    this.#flush();
    this.#usageKey = "";
    this.#append({ kind: "session_open", agentSessionId, origin, ...(agentInfo ? { agentInfo } : {}) });
  }

  /** Ends the turn: flushes text, writes still-open tool calls, plan, turn_end (with usage) and the counters patch. */
  endTurn(stopReason: string, status: ThreadStatus = "idle", usage?: TurnUsage): void {
    this.#flush();
    for (const tc of this.#tools.values()) this.#writeTool(tc);
    this.#tools.clear();
    if (this.#plan) this.#append({ kind: "plan", entries: this.#plan.entries });
    this.#plan = undefined;
    const wasInTurn = this.#inTurn;
    if (wasInTurn) this.#append({ kind: "turn_end", stopReason, ...(usage ? { usage } : {}) });
    this.#inTurn = false;
    const c = this.#meta.counters;
    this.patch({ status, counters: wasInTurn ? { ...c, turns: c.turns + 1 } : c });
    if (this.handle.checkpoint) this.handle.checkpoint();
    else this.handle.sync();
  }

  /** Flushes everything and closes the file; an open turn ends as `cancelled`. */
  close(status: ThreadStatus = "idle"): void {
    if (this.handle.closed) return;
    if (this.#inTurn) this.endTurn("cancelled", status);
    else if (this.#meta.status !== status) this.patch({ status });
    this.#clearTimer();
    this.handle.close();
  }

  #text(stream: StreamKind, text: string, messageId?: string): void {
    if (!text) return;
    const p = this.#pending;
    if (p && (p.stream !== stream || (messageId && messageId !== p.messageId))) this.#flush();
    if (!this.#pending) {
      this.#pending = { stream, messageId: messageId ?? randomUUID(), text: "" };
      if (stream === "output") this.#count("agentMessages");
    }
    this.#pending.text += text;
    if (this.#pending.text.length >= this.#flushBytes) this.#flush(true);
    else this.#armTimer();
  }

  /** `keepOpen`: a size/time flush of a message still streaming; its next part reuses the messageId. */
  #flush(keepOpen = false): void {
    this.#clearTimer();
    const p = this.#pending;
    if (!p) return;
    if (p.text)
      this.#append({ kind: p.stream === "output" ? "agent_message" : "thought", messageId: p.messageId, text: p.text });
    if (keepOpen) p.text = "";
    else this.#pending = undefined;
  }

  #armTimer(): void {
    if (this.#timer || this.#flushMs <= 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.handle.closed) this.#flush(true);
    }, this.#flushMs);
    this.#timer.unref();
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #writeTool(tc: ToolCallState): void {
    this.#append({ kind: "tool_call", toolCall: tc });
    this.#count("toolCalls");
  }

  // counters live in memory between patches; the turn-end patch persists them
  #count(key: "agentMessages" | "toolCalls"): void {
    this.#meta = { ...this.#meta, counters: { ...this.#meta.counters, [key]: this.#meta.counters[key] + 1 } };
  }

  #append(input: RecordInput): void {
    this.handle.append(input);
  }
}
