/**
 * Parser for our own thread JSONL files. Tolerant on purpose: it accepts a header/meta record (id, cwd, title),
 * whole messages ({role, text|content}) and streamed runtime events ({event: RuntimeEvent} or the event itself),
 * joining consecutive text deltas into one message so each turn is one searchable message.
 */
import { TEXT_CAP, TOOL_CAP, capText, isObj, parseTs, str, type ParsedMessage, type Role, type SessionMeta, type TranscriptParser } from "./model";

export interface ThreadState {
  seq: number;
  meta: SessionMeta;
  /** The assistant (or thought) message being streamed: its seq and text so far. */
  open?: { seq: number; role: Role; kind: "text" | "reasoning"; text: string; line: number };
  /** Tool call id → seq of its indexed message, so later updates rewrite it. */
  tools: [string, number][];
}

const META_TYPES = new Set(["header", "meta", "thread", "session", "created"]);

export function createThreadParser(prior?: ThreadState): TranscriptParser<ThreadState> {
  const state: ThreadState = prior ?? { seq: 0, meta: {}, tools: [] };
  let unknown = 0;

  const push = (out: ParsedMessage[], m: Omit<ParsedMessage, "seq">, seq?: number) => {
    if (!m.content.trim()) return undefined;
    const s = seq ?? state.seq++;
    out.push({ ...m, content: capText(m.content, m.role === "tool" ? TOOL_CAP : TEXT_CAP), seq: s, replaceSeq: seq });
    return s;
  };
  const closeOpen = () => {
    state.open = undefined;
  };

  const event = (e: Record<string, unknown>, line: number, ts: number | undefined, out: ParsedMessage[]) => {
    switch (e.type) {
      case "user_text":
        closeOpen();
        push(out, { role: "user", kind: "text", content: str(e.text) ?? "", line, ts });
        return;
      case "text": {
        const kind = e.stream === "thought" ? "reasoning" : "text";
        const text = str(e.text) ?? "";
        if (state.open && state.open.kind === kind) {
          state.open.text += text;
          push(out, { role: "assistant", kind, content: state.open.text, line: state.open.line, ts }, state.open.seq);
        } else {
          const seq = push(out, { role: "assistant", kind, content: text, line, ts });
          if (seq !== undefined) state.open = { seq, role: "assistant", kind, text, line };
        }
        return;
      }
      case "tool_call": {
        closeOpen();
        const tc = isObj(e.toolCall) ? e.toolCall : {};
        const id = str(tc.toolCallId) ?? str(tc.id) ?? "";
        const body = [str(tc.title), typeof tc.rawInput === "object" ? JSON.stringify(tc.rawInput) : undefined, JSON.stringify(tc.content ?? "")]
          .filter(Boolean)
          .join("\n");
        const prevSeq = state.tools.find(([t]) => t === id)?.[1];
        const seq = push(out, { role: "tool", kind: "tool_call", toolName: str(tc.kind) ?? "tool", content: body, line, ts }, prevSeq);
        if (prevSeq === undefined && seq !== undefined && id) {
          state.tools.push([id, seq]);
          if (state.tools.length > 256) state.tools.shift();
        }
        return;
      }
      case "compaction":
        closeOpen();
        push(out, { role: "assistant", kind: "compaction", content: str(e.summary) ?? "", line, ts });
        return;
      case "session_info":
        if (typeof e.title === "string") state.meta.title = e.title;
        return;
      case "done":
      case "error":
        closeOpen();
        return;
      default:
        return;
    }
  };

  return {
    state,
    get unknown() {
      return unknown;
    },
    meta: () => state.meta,
    feed(record, line) {
      const out: ParsedMessage[] = [];
      if (!isObj(record)) return out;
      const ts = parseTs(record.ts ?? record.timestamp ?? record.at ?? record.time);
      const type = str(record.type) ?? "";
      if (state.meta.startedAt === undefined && ts !== undefined) state.meta.startedAt = ts;
      if (META_TYPES.has(type) || (state.meta.id === undefined && (record.threadId || record.cwd))) {
        state.meta.id ??= str(record.threadId) ?? str(record.id);
        state.meta.cwd ??= str(record.cwd);
        state.meta.title ??= str(record.title);
        if (META_TYPES.has(type)) return out;
      }
      if (isObj(record.event)) event(record.event, line, ts, out);
      else if (typeof record.role === "string") {
        closeOpen();
        const content = str(record.text) ?? str(record.content) ?? "";
        push(out, { role: record.role as Role, kind: "text", content, line, ts });
      } else if (type) event(record, line, ts, out);
      else unknown++;
      return out;
    },
  };
}
