/**
 * Snapshot messages (OpenAI chat format) ↔ thread records, both ways, so that a file survives import and
 * export unchanged:
 * - user → user_message; assistant text → agent_message; each assistant `tool_calls` entry plus the `tool`
 *   message answering it → one tool_call record (name as title, parsed arguments as rawInput, the answer as
 *   text content);
 * - system / developer → a compaction record: our own summaries ("Summary of earlier conversation: ...")
 *   lose their label on import and get it back on export; any other system message is marked `system` and
 *   kept verbatim;
 * - on export, tool calls that follow an assistant message join it as its `tool_calls`, each answered by a
 *   `tool` message, which is what OpenAI-compatible readers require.
 */
import { parseContextRefs } from "../model/context";
import type { ToolCallState } from "../model/events";
import type { RecordInput, ThreadRecord } from "../model/records";
import { redactSecrets } from "../redact";
import { messageText, type SnapshotMessage, type SnapshotToolCall } from "./format";

export const SUMMARY_PREFIX = "Summary of earlier conversation: ";
const FUNCTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

interface PendingCall {
  name: string;
  args: string;
}

function parseArgs(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function toolRecord(id: string, call: PendingCall | undefined, text: string, answered: boolean): RecordInput {
  const toolCall: ToolCallState = {
    toolCallId: id,
    title: call?.name ?? (text.split("\n")[0]!.slice(0, 200) || "tool"),
    kind: "other",
    status: answered ? "completed" : "pending",
    content: text ? [{ type: "content", content: { type: "text", text } }] : [],
    locations: [],
  };
  if (call) toolCall.rawInput = parseArgs(call.args);
  return { kind: "tool_call", toolCall };
}

/** The records for a snapshot's messages (in order). `onMessage` is called after each message. */
export function messagesToRecords(messages: readonly SnapshotMessage[], onMessage?: (done: number) => void) {
  const records: RecordInput[] = [];
  const pending = new Map<string, PendingCall>();
  const flushUnanswered = () => {
    for (const [id, call] of pending) records.push(toolRecord(id, call, "", false));
    pending.clear();
  };
  messages.forEach((m, i) => {
    const text = messageText(m);
    const messageId = `snapshot-${i}`;
    if (m.role !== "tool") flushUnanswered();
    switch (m.role) {
      case "user": {
        const context = parseContextRefs(m.acp_context);
        records.push({ kind: "user_message", messageId, text, ...(context ? { context } : {}) });
        break;
      }
      case "assistant":
        if (text) records.push({ kind: "agent_message", messageId, text });
        for (const call of m.tool_calls ?? [])
          pending.set(call.id, { name: call.function.name, args: call.function.arguments ?? "" });
        break;
      case "tool": {
        const id = m.tool_call_id ?? `call_${i}`;
        records.push(toolRecord(id, pending.get(id), text, true));
        pending.delete(id);
        break;
      }
      default:
        // system / developer: instructions, or a summary of an earlier part of the conversation
        if (text.startsWith(SUMMARY_PREFIX))
          records.push({ kind: "compaction", windowId: null, summary: text.slice(SUMMARY_PREFIX.length) });
        else if (text) records.push({ kind: "compaction", windowId: null, summary: text, system: true });
    }
    onMessage?.(i + 1);
  });
  flushUnanswered();
  return records;
}

function toolText(tc: ToolCallState): string {
  const parts: string[] = [];
  for (const c of tc.content ?? []) {
    if (c.type === "content" && c.content.type === "text") parts.push(c.content.text);
    else if (c.type === "diff") parts.push(`${c.path}: edited`);
  }
  if (!parts.length && tc.terminalOutput) parts.push(tc.terminalOutput);
  return parts.join("\n");
}

function toolCallOf(tc: ToolCallState): SnapshotToolCall {
  // An ACP title ("Read src/a.ts") is no function name: then the kind names it and the title goes in arguments.
  const named = FUNCTION_NAME.test(tc.title);
  const input = tc.rawInput === undefined ? (named ? {} : { title: tc.title }) : tc.rawInput;
  return {
    id: tc.toolCallId,
    type: "function",
    function: {
      name: named ? tc.title : tc.kind || "tool",
      arguments: redactSecrets(typeof input === "string" ? input : JSON.stringify(input)),
    },
  };
}

const CONVERSATION_KINDS = new Set(["user_message", "agent_message", "exec_output", "tool_call", "compaction"]);

/**
 * The snapshot messages for a thread's records (text redacted). `onProgress` counts the records that carry
 * conversation (so an N-message thread reports N, not its bookkeeping records too).
 */
export function recordsToMessages(
  records: readonly ThreadRecord[],
  onProgress?: (done: number, total: number) => void,
) {
  const total = records.filter((r) => CONVERSATION_KINDS.has(r.kind)).length;
  let done = 0;
  const out: SnapshotMessage[] = [];
  /** The assistant message tool calls attach to while nothing else came after it. */
  let group: SnapshotMessage | undefined;
  let lastAgentId: string | undefined;
  records.forEach((r) => {
    switch (r.kind) {
      case "user_message": {
        const context = parseContextRefs(r.context);
        out.push({
          role: "user",
          content: redactSecrets(r.text),
          timestamp: r.ts,
          ...(context ? { acp_context: context } : {}),
        });
        group = undefined;
        lastAgentId = undefined;
        break;
      }
      case "agent_message": {
        const last = out[out.length - 1];
        // A message flushed in several records with one messageId is one message.
        if (last && last === group && lastAgentId === r.messageId && !last.tool_calls)
          last.content = `${last.content ?? ""}${redactSecrets(r.text)}`;
        else out.push((group = { role: "assistant", content: redactSecrets(r.text), timestamp: r.ts }));
        lastAgentId = r.messageId;
        break;
      }
      case "exec_output":
        out.push({ role: "assistant", content: redactSecrets(r.text), timestamp: r.ts });
        group = undefined;
        break;
      case "tool_call": {
        if (!group) out.push((group = { role: "assistant", content: null, timestamp: r.ts }));
        (group.tool_calls ??= []).push(toolCallOf(r.toolCall));
        const answer = redactSecrets(toolText(r.toolCall));
        if (r.toolCall.status !== "pending" || answer)
          out.push({ role: "tool", content: answer, tool_call_id: r.toolCall.toolCallId, timestamp: r.ts });
        lastAgentId = undefined;
        break;
      }
      case "compaction": {
        const text = redactSecrets(r.summary);
        out.push({ role: "system", content: r.system ? text : SUMMARY_PREFIX + text, timestamp: r.ts });
        group = undefined;
        break;
      }
      default:
        break; // thoughts, plans, permissions, usage, errors: not part of the conversation a model replays
    }
    if (CONVERSATION_KINDS.has(r.kind)) onProgress?.(++done, total);
  });
  return out;
}
