/**
 * Claude Code transcript parser (transcripts.md §B): one content block per line joined back by message.id,
 * sidechain replays of parent messages dropped, tool results named after their tool_use, meta lines and
 * command wrappers stripped, compact summaries kept as kind=compaction.
 */
import { redactSecrets } from "../redact";
import { stripClaudeInjected } from "./inject";
import { readableToolOutput } from "./tool-output";
import {
  TEXT_CAP,
  TOOL_CAP,
  capText,
  makeParser,
  parseTs,
  textKey,
  type ChainNode,
  type ParsedMessage,
  type SessionMeta,
  type TranscriptParser,
} from "./model";
import { isObj, str } from "../util/guards";

export interface ClaudeState {
  seq: number;
  meta: SessionMeta & { titleRank?: number };
  /** tool_use id → tool name (bounded). */
  tools: [string, string][];
  /** The assistant message being joined: its message.id, seq, text so far, and the blocks already seen. */
  open?: { id: string; seq: number; text: string; line: number; blocks: string[] };
}

/** Line types that carry no searchable text; anything else unknown is counted. */
const KNOWN_SKIPPED = new Set([
  "file-history-snapshot",
  "file-history-delta",
  "attachment",
  "last-prompt",
  "queue-operation",
  "progress",
  "mode",
  "permission-mode",
  "stream_event",
  "compact",
  "atis-latch",
  "bridge-session",
  "system",
  // seen in claude 2.1.330 transcripts: request/usage bookkeeping, no conversation text
  "api-request",
  "api-request-shape",
  "api-request-blob",
  "tools-used",
  "cost-state",
]);
const TITLE_RANK: Record<string, number> = { summary: 1, "ai-title": 2, "custom-title": 3 };

export interface ClaudeParserOptions {
  /** True when an assistant message id was already indexed from another file (a sidechain replay). */
  isReplay?: (messageId: string) => boolean;
  sidechainFile?: boolean;
}

const toolResultText = (content: unknown): string => (content === undefined ? "" : readableToolOutput(content));

function toolUseText(input: unknown): string {
  if (!isObj(input)) return typeof input === "string" ? input : "";
  const direct = input.command ?? input.file_path ?? input.pattern ?? input.url ?? input.prompt;
  const rest = JSON.stringify(input);
  return typeof direct === "string" ? `${direct}\n${rest}` : rest;
}

export function createClaudeParser(opts: ClaudeParserOptions = {}, prior?: ClaudeState): TranscriptParser<ClaudeState> {
  const state: ClaudeState = prior ?? { seq: 0, meta: {}, tools: [] };

  const emit = (out: ParsedMessage[], m: Omit<ParsedMessage, "seq">): number | undefined => {
    if (!m.content.trim()) return undefined;
    const cap = m.role === "tool" ? TOOL_CAP : TEXT_CAP;
    const seq = m.replaceSeq ?? state.seq++;
    out.push({ ...m, content: capText(m.content, cap), seq });
    return seq;
  };
  const toolName = (id: unknown) => (typeof id === "string" ? state.tools.find(([t]) => t === id)?.[1] : undefined);

  const user = (r: Record<string, unknown>, msg: Record<string, unknown>, line: number, ts?: number) => {
    const out: ParsedMessage[] = [];
    if (r.isMeta === true) return out;
    const kind = r.isCompactSummary === true ? "compaction" : "text";
    const role = kind === "compaction" ? "assistant" : "user";
    if (typeof msg.content === "string") {
      emit(out, { role, kind, line, ts, content: stripClaudeInjected(msg.content) });
      return out;
    }
    if (!Array.isArray(msg.content)) return out;
    const texts: string[] = [];
    for (const block of msg.content) {
      if (!isObj(block)) continue;
      if (block.type === "text" && typeof block.text === "string") texts.push(stripClaudeInjected(block.text));
      else if (block.type === "tool_result") {
        const name = toolName(block.tool_use_id) ?? "tool";
        emit(out, {
          role: "tool",
          kind: "tool_output",
          toolName: name,
          line,
          ts,
          content: toolResultText(block.content),
        });
      }
    }
    emit(out, { role, kind, line, ts, content: texts.filter(Boolean).join("\n") });
    return out;
  };

  const assistant = (msg: Record<string, unknown>, line: number, ts?: number) => {
    const out: ParsedMessage[] = [];
    const id = str(msg.id);
    if (id && opts.sidechainFile && state.open?.id !== id && opts.isReplay?.(id)) return out;
    if (!Array.isArray(msg.content)) return out;
    for (const block of msg.content) {
      if (!isObj(block)) continue;
      const blockKey = `${block.type}:${str(block.id) ?? textKey(str(block.text)?.slice(0, 200) ?? "")}`;
      if (id && state.open?.id === id) {
        if (state.open.blocks.includes(blockKey)) continue; // cumulative re-write of the same block
        state.open.blocks.push(blockKey);
      }
      if (block.type === "text" && typeof block.text === "string") {
        if (id && state.open?.id === id && state.open.text) {
          // the joined text so far is kept in the stored state: redacted, as the body will be
          state.open.text = redactSecrets(`${state.open.text}\n${block.text}`);
          emit(out, {
            role: "assistant",
            kind: "text",
            line: state.open.line,
            ts,
            content: state.open.text,
            replaceSeq: state.open.seq,
          });
        } else {
          const seq = emit(out, { role: "assistant", kind: "text", line, ts, content: block.text, extId: id });
          if (id && seq !== undefined)
            state.open = { id, seq, text: redactSecrets(block.text), line, blocks: [blockKey] };
        }
      } else if (block.type === "tool_use") {
        const name = str(block.name) ?? "tool";
        if (typeof block.id === "string") state.tools.push([block.id, name]);
        if (state.tools.length > 256) state.tools.splice(0, state.tools.length - 256);
        emit(out, { role: "tool", kind: "tool_call", toolName: name, line, ts, content: toolUseText(block.input) });
      }
      if (id && state.open?.id !== id) state.open = { id, seq: -1, text: "", line, blocks: [blockKey] };
    }
    return out;
  };

  const chain: ChainNode[] = [];
  const parser = makeParser(state, (record, line, out) => {
    const type = str(record.type) ?? "";
    noteNode(chain, record, type, line, opts.sidechainFile === true);
    const ts = parseTs(record.timestamp);
    const m = state.meta;
    m.id ??= str(record.sessionId);
    m.cwd ??= str(record.cwd);
    m.gitBranch ??= str(record.gitBranch);
    if (m.startedAt === undefined && ts !== undefined) m.startedAt = ts;
    const title = str(record.customTitle) ?? str(record.aiTitle) ?? str(record.summary);
    const rank = TITLE_RANK[type];
    if (rank !== undefined) {
      if (title && rank >= (m.titleRank ?? 0)) Object.assign(m, { title, titleRank: rank });
      return;
    }
    const msg = isObj(record.message) ? record.message : undefined;
    if (type === "user" && msg) out.push(...user(record, msg, line, ts));
    else if (type === "assistant" && msg) out.push(...assistant(msg, line, ts));
    else if (!KNOWN_SKIPPED.has(type)) parser.unknown++;
  });
  return Object.assign(parser, { chain });
}

/**
 * Records the line's tree link. A sub-agent's lines inside a main transcript (isSidechain) are another
 * conversation, not a branch of this one: they get no node, so they are never flagged off-chain.
 */
function noteNode(chain: ChainNode[], r: Record<string, unknown>, type: string, line: number, sidechainFile: boolean) {
  const uuid = str(r.uuid);
  if (!uuid || (r.isSidechain === true && !sidechainFile)) return;
  const parent = str(r.parentUuid) ?? str(r.logicalParentUuid) ?? null;
  const kind = type === "user" || type === "assistant" ? 1 : r.subtype === "compact_boundary" ? 2 : 0;
  chain.push({ line, uuid, parent, kind });
}
