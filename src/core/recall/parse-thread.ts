/**
 * Parser for our own thread JSONL files (src/core/model/records.ts): user and agent messages (already coalesced,
 * one record each), thoughts, the final state of each tool call, compactions, exec output, and the metadata
 * (title patches, the transcript an exec run left behind). Records of kinds it does not index are skipped.
 */
import type { ThreadRecord } from "../model/records";
import { isObj } from "../util/guards";
import {
  TEXT_CAP,
  TOOL_CAP,
  capText,
  makeParser,
  parseTs,
  type Kind,
  type ParsedMessage,
  type Role,
  type SessionMeta,
  type TranscriptParser,
} from "./model";

export interface ThreadState {
  seq: number;
  meta: SessionMeta;
  /** Tool call id → seq of its indexed message, so a later state of the same call rewrites it (bounded). */
  tools: [string, number][];
}

/** Records that are one message each: their role and kind in the index. */
const TEXT_RECORDS: Record<"user_message" | "agent_message" | "thought" | "compaction" | "exec_output", [Role, Kind]> =
  {
    user_message: ["user", "text"],
    agent_message: ["assistant", "text"],
    thought: ["assistant", "reasoning"],
    compaction: ["assistant", "compaction"],
    exec_output: ["tool", "tool_output"],
  };
const SKIPPED = new Set(["plan", "permission", "usage", "exec_exit", "turn_end", "error"]);

function contentText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  const out: string[] = [];
  for (const c of content) {
    if (!isObj(c)) continue;
    const inner = isObj(c.content) ? c.content : undefined;
    if (typeof inner?.text === "string") out.push(inner.text);
    else if (c.type === "diff" && typeof c.path === "string")
      out.push(`diff ${c.path}\n${typeof c.newText === "string" ? c.newText : ""}`);
  }
  return out.join("\n");
}

export function createThreadParser(prior?: ThreadState): TranscriptParser<ThreadState> {
  const state: ThreadState = prior ?? { seq: 0, meta: {}, tools: [] };

  const push = (out: ParsedMessage[], m: Omit<ParsedMessage, "seq">, replaceSeq?: number) => {
    if (!m.content.trim()) return undefined;
    const seq = replaceSeq ?? state.seq++;
    out.push({ ...m, content: capText(m.content, m.role === "tool" ? TOOL_CAP : TEXT_CAP), seq, replaceSeq });
    return seq;
  };

  const record = (r: ThreadRecord, line: number, out: ParsedMessage[]) => {
    const ts = parseTs(r.ts);
    switch (r.kind) {
      case "thread_start":
        state.meta.id ??= r.threadId;
        state.meta.cwd ??= r.cwd;
        state.meta.title ??= r.title;
        state.meta.startedAt ??= ts;
        return;
      case "meta_patch":
        if (typeof r.patch.title === "string") state.meta.title = r.patch.title;
        if (typeof r.patch.transcriptPath === "string") state.meta.transcriptPath = r.patch.transcriptPath;
        return;
      case "user_message":
      case "agent_message":
      case "thought":
      case "compaction":
      case "exec_output": {
        const [role, kind] = TEXT_RECORDS[r.kind];
        const content = r.kind === "compaction" ? r.summary : r.text;
        push(out, {
          role,
          kind,
          content,
          line,
          ts,
          toolName: r.kind === "exec_output" ? `exec:${r.stream}` : undefined,
        });
        return;
      }
      case "tool_call": {
        const tc = r.toolCall;
        const input = tc.rawInput === undefined ? "" : JSON.stringify(tc.rawInput);
        const body = [tc.title, input, contentText(tc.content), tc.terminalOutput ?? ""].filter(Boolean).join("\n");
        const prev = state.tools.find(([id]) => id === tc.toolCallId)?.[1];
        // a call a subagent made says so in its hit label ("tool:read (subagent)")
        const toolName = tc.parentToolCallId ? `${tc.kind} (subagent)` : tc.kind;
        const seq = push(out, { role: "tool", kind: "tool_call", toolName, content: body, line, ts }, prev);
        if (prev === undefined && seq !== undefined) {
          state.tools.push([tc.toolCallId, seq]);
          if (state.tools.length > 256) state.tools.shift();
        }
        return;
      }
      default:
        if (!SKIPPED.has((r as { kind: string }).kind)) parser.unknown++;
    }
  };

  const parser = makeParser(state, (value, line, out) => {
    if (typeof value.kind === "string") record(value as unknown as ThreadRecord, line, out);
    else parser.unknown++;
  });
  return parser;
}
