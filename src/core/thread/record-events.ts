/**
 * Stored thread records → the `RuntimeEvent`s the thread panel renders, so a past thread and a live one go
 * through the same view model. Pure (no vscode); unit-tested.
 */
import { parseContextRefs } from "../model/context";
import type { RuntimeEvent, ToolCallState } from "../model/events";
import type { ThreadRecord } from "../model/records";

/**
 * A subagent's calls end (and are recorded) before the Agent / Task call they ran in: each waits for its parent's
 * record, so the panel can nest it. A parent with no record later on leaves its calls where they are.
 */
function subagentOrder(records: readonly ThreadRecord[]) {
  const lastAt = new Map<string, number>();
  records.forEach((r, i) => r.kind === "tool_call" && lastAt.set(r.toolCall.toolCallId, i));
  const held = new Map<string, ToolCallState[]>();
  const waiting = new Set<string>();
  return {
    /** True when `tc` (record `i`) waits for its parent's later record (or for its waiting parent). */
    hold(tc: ToolCallState, i: number): boolean {
      const parent = tc.parentToolCallId;
      if (parent === undefined || ((lastAt.get(parent) ?? -1) <= i && !waiting.has(parent))) return false;
      held.set(parent, [...(held.get(parent) ?? []), tc]);
      waiting.add(tc.toolCallId);
      return true;
    },
    /** The calls that waited for `id`, and theirs, in order. */
    release(id: string): ToolCallState[] {
      const calls = held.get(id) ?? [];
      held.delete(id);
      for (const c of calls) waiting.delete(c.toolCallId);
      return calls.flatMap((c) => [c, ...this.release(c.toolCallId)]);
    },
    /** Calls still waiting at the end (parents that name each other): shown last, never lost. */
    rest(): ToolCallState[] {
      return [...held.keys()].flatMap((id) => this.release(id));
    },
  };
}

export function recordsToEvents(records: readonly ThreadRecord[]): RuntimeEvent[] {
  const out: RuntimeEvent[] = [];
  const order = subagentOrder(records);
  for (const [i, r] of records.entries()) {
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
        if (order.hold(r.toolCall, i)) break;
        for (const toolCall of [r.toolCall, ...order.release(r.toolCall.toolCallId)])
          out.push({ type: "tool_call", toolCall });
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
            ...(r.optionName ? { optionName: r.optionName } : {}),
            decidedBy: r.decidedBy,
            ...(r.answeredBy ? { answeredBy: r.answeredBy } : {}),
            options: r.optionId
              ? [
                  {
                    optionId: r.optionId,
                    name: r.optionName ?? r.optionId,
                    kind: (r.optionKind ?? "allow_once") as "allow_once",
                  },
                ]
              : [],
            ...(r.rule ? { rule: r.rule } : {}),
            ...(r.reason ? { reason: r.reason } : {}),
            ...(r.outside?.length ? { outside: r.outside } : {}),
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
  for (const toolCall of order.rest()) out.push({ type: "tool_call", toolCall });
  return out;
}
