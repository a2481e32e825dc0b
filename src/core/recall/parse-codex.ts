/**
 * Codex rollout parser (transcripts.md §A): envelopes and legacy bare items, tool calls and outputs, compaction
 * summaries, injected context stripped, and the event_msg/response_item mirrors of one message indexed once.
 */
import { stripCodexInjected } from "./inject";
import { readableToolOutput } from "./tool-output";
import {
  TEXT_CAP,
  TOOL_CAP,
  capText,
  makeParser,
  parseTs,
  textKey,
  type Kind,
  type ParsedMessage,
  type Role,
  type SessionMeta,
  type TranscriptParser,
} from "./model";
import { isObj, str } from "../util/guards";

export interface CodexState {
  seq: number;
  meta: SessionMeta;
  /** call_id → tool name, so outputs carry the name of their call (bounded). */
  calls: [string, string][];
  /** Messages seen from one side of a mirror pair and not yet matched by the other side. */
  pending: { key: string; side: "ri" | "em" }[];
  /** Set once the copy of the parent's history at the start of a fork/sub-agent rollout has ended. */
  prefixDone?: boolean;
}

const KNOWN_SKIPPED = new Set([
  "turn_context",
  "inter_agent_communication",
  "inter_agent_communication_metadata",
  "world_state",
  "token_usage_record", // seen in codex 0.169 rollouts: usage bookkeeping, no text
]);
const BARE_ITEM_TYPES = new Set([
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "web_search_call",
]);

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const c of content) if (isObj(c) && typeof c.text === "string") parts.push(c.text);
  return parts.join("\n");
}

function callText(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (isObj(parsed)) {
      const cmd = parsed.cmd ?? parsed.command;
      if (Array.isArray(cmd)) return cmd.join(" ");
      if (typeof cmd === "string") return cmd;
    }
  } catch {
    // arguments are not JSON: index them as they are
  }
  return args;
}

export function createCodexParser(prior?: CodexState): TranscriptParser<CodexState> {
  const state: CodexState = prior ?? { seq: 0, meta: {}, calls: [], pending: [] };

  const toolName = (callId: unknown): string | undefined =>
    typeof callId === "string" ? state.calls.find(([id]) => id === callId)?.[1] : undefined;
  const rememberCall = (callId: unknown, name: string) => {
    if (typeof callId !== "string") return;
    state.calls.push([callId, name]);
    if (state.calls.length > 256) state.calls.splice(0, state.calls.length - 256);
  };

  /** True when the other side of the mirror already produced this text; records this side otherwise. */
  const mirrored = (role: Role, text: string, side: "ri" | "em"): boolean => {
    const key = `${role}:${textKey(text.trim())}`;
    const i = state.pending.findIndex((p) => p.key === key && p.side !== side);
    if (i >= 0) {
      state.pending.splice(i, 1);
      return true;
    }
    state.pending.push({ key, side });
    if (state.pending.length > 16) state.pending.shift();
    return false;
  };

  const emit = (out: ParsedMessage[], m: Omit<ParsedMessage, "seq">) => {
    if (!m.content.trim()) return;
    const cap = m.role === "tool" || m.role === "developer" || m.role === "system" ? TOOL_CAP : TEXT_CAP;
    out.push({ ...m, content: capText(m.content, cap), seq: state.seq++ });
  };

  const metaLine = (p: Record<string, unknown>, ts: number | undefined) => {
    const first = state.meta.id === undefined;
    if (first) {
      state.meta.id = str(p.id) ?? str(p.session_id);
      state.meta.startedAt = parseTs(p.timestamp) ?? ts;
      const git = isObj(p.git) ? p.git : undefined;
      state.meta.gitBranch = str(git?.branch);
      state.meta.originUrl = str(git?.repository_url);
      const source =
        isObj(p.source) && isObj(p.source.subagent) && isObj(p.source.subagent.thread_spawn)
          ? p.source.subagent.thread_spawn
          : {};
      state.meta.parentId = str(p.forked_from_id) ?? str(p.parent_thread_id) ?? str(source.parent_thread_id);
    }
    state.meta.cwd ??= str(p.cwd);
  };

  const responseItem = (p: Record<string, unknown>, line: number, ts: number | undefined, out: ParsedMessage[]) => {
    const base = { line, ts };
    switch (p.type) {
      case "message": {
        const role = (str(p.role) ?? "assistant") as Role;
        let text = contentText(p.content);
        if (role === "user") text = stripCodexInjected(text);
        if (!text.trim()) return;
        if ((role === "user" || role === "assistant") && mirrored(role, text, "ri")) return;
        emit(out, { ...base, role, kind: "text", content: text });
        return;
      }
      case "reasoning": {
        const summary = Array.isArray(p.summary) ? contentText(p.summary) : "";
        emit(out, { ...base, role: "assistant", kind: "reasoning", content: summary });
        return;
      }
      case "function_call":
      case "custom_tool_call": {
        const name = [str(p.namespace), str(p.name)].filter(Boolean).join(".") || "tool";
        rememberCall(p.call_id, name);
        const body = p.type === "function_call" ? callText(str(p.arguments) ?? "") : (str(p.input) ?? "");
        emit(out, { ...base, role: "tool", kind: "tool_call", toolName: name, content: body });
        return;
      }
      case "function_call_output":
      case "custom_tool_call_output": {
        const output = readableToolOutput(p.output);
        const name = toolName(p.call_id) ?? str(p.name) ?? "tool";
        emit(out, { ...base, role: "tool", kind: "tool_output", toolName: name, content: output });
        return;
      }
      case "local_shell_call": {
        const action = isObj(p.action) ? p.action : {};
        const cmd = Array.isArray(action.command) ? action.command.join(" ") : "";
        rememberCall(p.call_id, "local_shell");
        emit(out, { ...base, role: "tool", kind: "tool_call", toolName: "local_shell", content: cmd });
        return;
      }
      case "web_search_call": {
        const action = isObj(p.action) ? p.action : {};
        const q =
          str(action.query) ?? (Array.isArray(action.queries) ? action.queries.join(" | ") : (str(action.url) ?? ""));
        emit(out, { ...base, role: "tool", kind: "tool_call", toolName: "web_search", content: q });
        return;
      }
      default:
        return; // opaque items (compaction blobs, images, tool search) carry nothing to index
    }
  };

  const eventMsg = (p: Record<string, unknown>, line: number, ts: number | undefined, out: ParsedMessage[]) => {
    const kind: Kind = "text";
    if (p.type === "user_message") {
      const text = stripCodexInjected(str(p.message) ?? "");
      if (text && !mirrored("user", text, "em")) emit(out, { line, ts, role: "user", kind, content: text });
    } else if (p.type === "agent_message") {
      const text = str(p.message) ?? "";
      if (text && !mirrored("assistant", text, "em")) emit(out, { line, ts, role: "assistant", kind, content: text });
    }
  };

  const parser = makeParser(state, (record, line, out) => {
    const ts = parseTs(record.timestamp);
    const type = str(record.type);
    const payload = isObj(record.payload) ? record.payload : undefined;
    if (type === undefined && record.id !== undefined && payload === undefined) metaLine(record, ts);
    else if (type !== undefined && BARE_ITEM_TYPES.has(type) && payload === undefined)
      responseItem(record, line, ts, out);
    else if (type === "session_meta" && payload) metaLine(payload, ts);
    else if (type === "response_item" && payload) responseItem(payload, line, ts, out);
    else if (type === "event_msg" && payload) eventMsg(payload, line, ts, out);
    else if (type === "compacted" && payload)
      emit(out, { line, ts, role: "assistant", kind: "compaction", content: str(payload.message) ?? "" });
    else if (type === "turn_context" && payload) state.meta.cwd ??= str(payload.cwd);
    else if (!type || !KNOWN_SKIPPED.has(type)) parser.unknown++;
    if (state.meta.startedAt === undefined && ts !== undefined) state.meta.startedAt = ts;
  });
  return parser;
}
