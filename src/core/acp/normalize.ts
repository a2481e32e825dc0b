/**
 * Turns `session/update` payloads into normalized `RuntimeEvent`s.
 *
 * Input is untrusted (the fast path in ndjson-stream.ts skips the SDK's schema parse), so every field is
 * checked here and an update we cannot read becomes nothing rather than a crash. Tool calls are merged by
 * `toolCallId` with patch semantics: each emitted `tool_call` event carries the full current state.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { RuntimeEvent, ToolCallState } from "../model/events";
import { isObj, str, type Obj } from "../util/guards";

const arr = <T>(v: unknown): T[] | undefined => (Array.isArray(v) ? (v as T[]) : undefined);

/** Text of a content block as a consumer would print it. */
export function contentText(block: unknown): string {
  if (!isObj(block)) return "";
  switch (block.type) {
    case "text":
      return str(block.text) ?? "";
    case "resource_link":
      return `[${str(block.name) ?? str(block.uri) ?? "link"}](${str(block.uri) ?? ""})`;
    case "resource": {
      const res = isObj(block.resource) ? block.resource : {};
      return str(res.text) ?? `[resource ${str(res.uri) ?? ""}]`;
    }
    case "image":
      return "[image]";
    case "audio":
      return "[audio]";
    default:
      return "";
  }
}

const running = (s: string) => s === "pending" || s === "in_progress";

/** Start / end times as this client saw them (the duration shown for a command). */
function stampTimes(next: ToolCallState, prev: ToolCallState | undefined): void {
  const now = Date.now();
  if (prev?.startedAt !== undefined) next.startedAt = prev.startedAt;
  else if (running(next.status)) next.startedAt = now;
  if (prev?.endedAt !== undefined) next.endedAt = prev.endedAt;
  else if (next.startedAt !== undefined && !running(next.status)) next.endedAt = now;
}

/** A tool call's streamed terminal output keeps its first and last characters (the middle is cut, marked). */
export const TOOL_OUTPUT_HEAD = 16 * 1024;
export const TOOL_OUTPUT_TAIL = 48 * 1024;
const CUT_MARK = "\n…[output cut]…\n";
/** Calls a session remembers for merging updates: the oldest finished ones are forgotten first. */
export const MAX_TRACKED_CALLS = 512;

/** `text` with its first `head` and last `tail` characters and a mark between them when longer. */
export function headTail(text: string, head: number, tail: number): string {
  if (text.length <= head + tail + CUT_MARK.length) return text;
  const start = text.startsWith(CUT_MARK, head)
    ? text.slice(0, head + CUT_MARK.length)
    : text.slice(0, head) + CUT_MARK;
  return start + text.slice(-tail);
}

/**
 * The subagent tool call an update belongs to: claude-agent-acp stamps `_meta.claudeCode.parentToolUseId` on the
 * updates a subagent (its Agent / Task tool) makes; `_meta.parentToolCallId` is accepted for other agents.
 */
export function parentToolCallOf(meta: Obj | undefined): string | undefined {
  if (!meta) return undefined;
  const claude = isObj(meta.claudeCode) ? str(meta.claudeCode.parentToolUseId) : undefined;
  return claude || str(meta.parentToolCallId) || undefined;
}

/** Per-session tool-call state, so updates can be merged into full snapshots. Bounded (MAX_TRACKED_CALLS). */
export class ToolCallTracker {
  readonly #calls = new Map<string, ToolCallState>();

  constructor(readonly maxCalls: number = MAX_TRACKED_CALLS) {}

  get size(): number {
    return this.#calls.size;
  }

  /** Forgets the oldest finished calls (a late update to one starts a fresh state), else the oldest at all. */
  #evict(): void {
    let over = this.#calls.size - this.maxCalls;
    for (const [id, call] of this.#calls) {
      if (over <= 0) return;
      if (running(call.status)) continue;
      this.#calls.delete(id);
      over--;
    }
    for (const id of this.#calls.keys()) {
      if (over-- <= 0) return;
      this.#calls.delete(id);
    }
  }

  get(id: string): ToolCallState | undefined {
    return this.#calls.get(id);
  }

  all(): ToolCallState[] {
    return [...this.#calls.values()];
  }

  /** Applies a `tool_call` (full) or `tool_call_update` (patch); returns a copy of the merged state. */
  apply(update: Obj, full: boolean): ToolCallState | undefined {
    const id = str(update.toolCallId);
    if (!id) return undefined;
    const prev = full ? undefined : this.#calls.get(id);
    const next: ToolCallState = prev
      ? { ...prev }
      : { toolCallId: id, title: "", kind: "other", status: "pending", content: [], locations: [] };
    if (typeof update.title === "string") next.title = update.title;
    if (typeof update.kind === "string") next.kind = update.kind as acp.ToolKind;
    if (typeof update.status === "string") next.status = update.status as acp.ToolCallStatus;
    const content = arr<acp.ToolCallContent>(update.content);
    if (content) next.content = content;
    const locations = arr<acp.ToolCallLocation>(update.locations);
    if (locations) next.locations = locations;
    if ("rawInput" in update && update.rawInput !== undefined) next.rawInput = update.rawInput;
    if ("rawOutput" in update && update.rawOutput !== undefined) next.rawOutput = update.rawOutput;
    const meta = isObj(update._meta) ? update._meta : undefined;
    const term = meta && (isObj(meta.terminal_output) ? meta.terminal_output : meta.terminal_output_delta);
    if (isObj(term) && typeof term.data === "string")
      next.terminalOutput = headTail((next.terminalOutput ?? "") + term.data, TOOL_OUTPUT_HEAD, TOOL_OUTPUT_TAIL);
    const exit = meta && isObj(meta.terminal_exit) ? meta.terminal_exit : undefined;
    if (exit) {
      const code = exit.exit_code;
      next.terminalExit = {
        exitCode: typeof code === "number" && Number.isFinite(code) ? code : null,
        signal: str(exit.signal) ?? null,
      };
    }
    const parent = parentToolCallOf(meta);
    if (parent && parent !== id) next.parentToolCallId = parent;
    stampTimes(next, this.#calls.get(id));
    this.#calls.set(id, next);
    if (this.#calls.size > this.maxCalls) this.#evict();
    return { ...next };
  }

  /** Marks every unfinished call cancelled (turn cancel); returns the changed states. */
  cancelUnfinished(): ToolCallState[] {
    const changed: ToolCallState[] = [];
    for (const call of this.#calls.values()) {
      if (call.status === "pending" || call.status === "in_progress") {
        call.status = "cancelled";
        stampTimes(call, call);
        changed.push({ ...call });
      }
    }
    return changed;
  }
}

/** Normalizes one `session/update` payload (the `update` field) into zero or more events. */
export function normalizeUpdate(update: unknown, tools: ToolCallTracker): RuntimeEvent[] {
  if (!isObj(update)) return [];
  const messageId = str(update.messageId);
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
    case "agent_thought_chunk": {
      const text = contentText(update.content);
      if (!text) return [];
      const stream = update.sessionUpdate === "agent_message_chunk" ? "output" : "thought";
      return [messageId ? { type: "text", stream, text, messageId } : { type: "text", stream, text }];
    }
    case "user_message_chunk": {
      const text = contentText(update.content);
      return text ? [messageId ? { type: "user_text", text, messageId } : { type: "user_text", text }] : [];
    }
    case "tool_call":
    case "tool_call_update": {
      const toolCall = tools.apply(update, update.sessionUpdate === "tool_call");
      return toolCall ? [{ type: "tool_call", toolCall }] : [];
    }
    case "plan":
      return [{ type: "plan", entries: arr<acp.PlanEntry>(update.entries) ?? [] }];
    case "available_commands_update":
      return [{ type: "commands", commands: arr<acp.AvailableCommand>(update.availableCommands) ?? [] }];
    case "current_mode_update":
      return typeof update.currentModeId === "string" ? [{ type: "mode", modeId: update.currentModeId }] : [];
    case "config_option_update":
      return [{ type: "config_options", options: arr<acp.SessionConfigOption>(update.configOptions) ?? [] }];
    case "session_info_update": {
      const ev: RuntimeEvent = { type: "session_info" };
      if ("title" in update) ev.title = str(update.title) ?? null;
      if ("updatedAt" in update) ev.updatedAt = str(update.updatedAt) ?? null;
      return [ev];
    }
    case "usage_update": {
      if (typeof update.used !== "number" || typeof update.size !== "number") return [];
      const cost = isObj(update.cost) ? (update.cost as { amount: number; currency: string }) : null;
      return [{ type: "usage", used: update.used, size: update.size, cost }];
    }
    case "notice": {
      const severity = update.severity === "warning" || update.severity === "error" ? update.severity : "info";
      const description = str(update.description);
      return [{ type: "notice", severity, title: str(update.title) ?? "", ...(description ? { description } : {}) }];
    }
    case "compaction_update": {
      const summary = arr(update.summary)?.map(contentText).join("") || undefined;
      return [
        {
          type: "compaction",
          compactionId: str(update.compactionId) ?? "",
          status: str(update.status) ?? "in_progress",
          ...(summary ? { summary } : {}),
        },
      ];
    }
    case "compaction_summary_chunk":
      return [
        {
          type: "compaction",
          compactionId: str(update.compactionId) ?? "",
          status: "summary_chunk",
          summary: contentText(update.content),
        },
      ];
    default:
      return [];
  }
}
