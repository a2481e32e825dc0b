/**
 * Stored thread records → the `RuntimeEvent`s the thread panel renders, so a past thread and a live one go
 * through the same view model. Pure (no vscode); unit-tested.
 */
import { parseContextRefs } from "../model/context";
import type { RuntimeEvent } from "../model/events";
import type { ThreadRecord } from "../model/records";

export function recordsToEvents(records: readonly ThreadRecord[]): RuntimeEvent[] {
  const out: RuntimeEvent[] = [];
  for (const r of records) {
    switch (r.kind) {
      case "user_message": {
        const context = parseContextRefs(r.context);
        out.push({
          type: "user_text",
          text: r.text,
          messageId: r.messageId,
          ...(context ? { context } : {}),
          ...(r.steered ? { steered: true } : {}),
        });
        break;
      }
      case "agent_message":
        out.push({ type: "text", stream: "output", text: r.text, messageId: r.messageId });
        break;
      case "thought":
        out.push({ type: "text", stream: "thought", text: r.text, messageId: r.messageId });
        break;
      case "tool_call":
        out.push({ type: "tool_call", toolCall: r.toolCall });
        break;
      case "plan":
        out.push({ type: "plan", entries: r.entries });
        break;
      case "permission":
        out.push({
          type: "permission",
          decision: {
            toolCallId: r.toolCallId,
            title: r.title,
            kind: r.toolKind as "other",
            optionId: r.optionId,
            optionKind: r.optionKind as null,
            decidedBy: r.decidedBy,
            options: r.optionId
              ? [{ optionId: r.optionId, name: r.optionId, kind: (r.optionKind ?? "allow_once") as "allow_once" }]
              : [],
          },
        });
        break;
      case "usage":
        out.push({ type: "usage", used: r.used, size: r.size, cost: r.cost });
        break;
      case "compaction":
        out.push({ type: "notice", severity: "info", title: "Context compacted", description: r.summary });
        break;
      case "exec_output":
        out.push({ type: "text", stream: "output", text: "```\n" + r.text.replace(/```/g, "'''") + "\n```\n" });
        break;
      case "exec_exit":
        out.push({
          type: "notice",
          severity: r.exitCode === 0 ? "info" : "warning",
          title: `Process exited${r.signal ? ` by ${r.signal}` : ` with code ${r.exitCode}`}`,
        });
        break;
      case "turn_end":
        out.push({ type: "done", stopReason: r.stopReason as "end_turn", ...(r.usage ? { usage: r.usage } : {}) });
        break;
      case "error":
        out.push({ type: "error", message: r.message, code: r.code });
        break;
      default:
        break; // thread_start, meta_patch: metadata, not conversation
    }
  }
  return out;
}
