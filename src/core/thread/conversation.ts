/**
 * The conversation view of a thread's records: user and agent messages (an agent message flushed in several
 * records with the same messageId is joined back), tool calls as one-line summaries, compaction summaries.
 * Used by `threads show`, snapshot export and resume seeding.
 */
import type { ThreadRecord } from "../model/records";

export type ConversationRole = "user" | "assistant" | "thought" | "tool" | "compaction" | "error";

export interface ConversationEntry {
  role: ConversationRole;
  text: string;
  ts: string;
  messageId?: string;
  /** Index of the (first) record this entry came from. */
  index: number;
  windowId?: string | null;
}

export function toolSummary(r: Extract<ThreadRecord, { kind: "tool_call" }>): string {
  const tc = r.toolCall;
  const where = tc.locations
    ?.map((l) => l.path)
    .filter(Boolean)
    .join(", ");
  return `${tc.title || tc.kind} [${tc.status}]${where ? ` ${where}` : ""}`;
}

export function conversation(records: readonly ThreadRecord[]): ConversationEntry[] {
  const out: ConversationEntry[] = [];
  records.forEach((r, index) => {
    switch (r.kind) {
      case "user_message":
        out.push({ role: "user", text: r.text, ts: r.ts, messageId: r.messageId, index });
        return;
      case "agent_message":
      case "thought": {
        const role = r.kind === "agent_message" ? "assistant" : "thought";
        const last = out[out.length - 1];
        if (last && last.role === role && last.messageId === r.messageId) last.text += r.text;
        else out.push({ role, text: r.text, ts: r.ts, messageId: r.messageId, index });
        return;
      }
      case "tool_call":
        out.push({ role: "tool", text: toolSummary(r), ts: r.ts, index });
        return;
      case "compaction":
        out.push({ role: "compaction", text: r.summary, ts: r.ts, index, windowId: r.windowId });
        return;
      case "error":
        out.push({ role: "error", text: r.message, ts: r.ts, index });
        return;
      case "exec_output":
        out.push({ role: "assistant", text: r.text, ts: r.ts, index });
        return;
      default:
        return;
    }
  });
  return out;
}
