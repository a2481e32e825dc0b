/** Shapes shared by the recall parsers, importer and query side. */
import { isObj } from "../util/guards";

export type Role = "user" | "assistant" | "tool" | "developer" | "system";
export type Kind = "text" | "tool_call" | "tool_output" | "compaction" | "reasoning";
export type SourceName = "acp_threads" | "codex_rollout" | "claude_code_jsonl";

export interface ParsedMessage {
  role: Role;
  kind: Kind;
  content: string;
  toolName?: string;
  /** Epoch milliseconds, when the record had a timestamp. */
  ts?: number;
  /** 1-based line number in the transcript file. */
  line: number;
  /** Set when this message replaces an already emitted one (Claude lines of one message joined by message.id). */
  replaceSeq?: number;
  /** Message index within the session, assigned by the parser. */
  seq: number;
  /** The source's own message id when it is needed for cross-file dedupe (Claude assistant message.id). */
  extId?: string;
}

export interface SessionMeta {
  id?: string;
  cwd?: string;
  startedAt?: number;
  title?: string;
  gitBranch?: string;
  originUrl?: string;
  /** A Codex/Claude transcript this session points at (an exec thread's run): indexed along with it. */
  transcriptPath?: string;
  /** The Codex thread this one was forked or spawned from (its rollout starts with a copy of the parent's). */
  parentId?: string;
}

/**
 * A transcript line's place in its conversation tree (Claude: uuid → parentUuid, or logicalParentUuid across a
 * compact boundary). kind 1 = a user/assistant line (a leaf candidate), 2 = a compact boundary, 0 = other.
 */
export interface ChainNode {
  line: number;
  uuid: string;
  parent: string | null;
  kind: 0 | 1 | 2;
}

/** One parser per file; its state is JSON so a tail import resumes where the last one stopped. */
export interface TranscriptParser<S> {
  readonly state: S;
  /** Tree links of the lines fed so far, for formats with branches (Claude); the importer drains it. */
  readonly chain?: ChainNode[];
  /** Feeds one parsed JSON line; returns the messages it produced. */
  feed(record: unknown, line: number): ParsedMessage[];
  meta(): SessionMeta;
  /** Records of a type this parser does not know (skipped, counted). */
  unknown: number;
}

/** Wraps a format's line handler as a TranscriptParser; a line that is not a JSON object counts as unknown. */
export function makeParser<S extends { meta: SessionMeta }>(
  state: S,
  onRecord: (record: Record<string, unknown>, line: number, out: ParsedMessage[]) => void,
): TranscriptParser<S> {
  const parser: TranscriptParser<S> = {
    state,
    unknown: 0,
    meta: () => state.meta,
    feed(record, line) {
      const out: ParsedMessage[] = [];
      if (isObj(record)) onRecord(record, line, out);
      else parser.unknown++;
      return out;
    },
  };
  return parser;
}

export const TOOL_CAP = 4000;
export const TEXT_CAP = 32_000;

/** Keeps head and tail of long text, so both a command's start and its result survive. */
export function capText(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const half = Math.floor((cap - 40) / 2);
  return `${text.slice(0, half)}\n… [${text.length - 2 * half} chars omitted] …\n${text.slice(-half)}`;
}

export function parseTs(value: unknown): number | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  const t = typeof value === "number" ? value : Date.parse(value);
  return Number.isFinite(t) ? t : undefined;
}

/**
 * 12 hex digits of two FNV-1a passes: a name, not a secret (node:crypto would cost a cold query ~2 ms to load).
 */
export function shortHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x811c9dc5) ^ (b >>> 15);
  }
  return ((a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0")).slice(0, 12);
}

/**
 * A fingerprint of text for parser state, which is stored with the index: never the text itself, which may hold
 * a secret the body's redaction removed.
 */
export const textKey = (text: string): string => `${text.length}:${shortHash(text)}`;

/**
 * Message rowids encode what ranking needs without touching the messages table: session, position and the hit
 * class, so an FTS query can be aggregated per session from rowids alone (mid = sid·2^24 + seq·4 + class).
 */
export const SEQ_SPAN = 2 ** 22;
export const SID_FACTOR = 2 ** 24;
/** 0 first-hand text (user/assistant), 1 tool, 2 assistant summaries/reasoning, 3 developer/system. */
export type HitClass = 0 | 1 | 2 | 3;

export function hitClass(role: string, kind: string): HitClass {
  if ((role === "user" || role === "assistant") && kind === "text") return 0;
  if (role === "tool") return 1;
  if (role === "assistant" || role === "user") return 2;
  return 3;
}

export const messageId = (sid: number, seq: number, cls: HitClass) => sid * SID_FACTOR + seq * 4 + cls;
export const decodeId = (mid: number) => {
  const sid = Math.floor(mid / SID_FACTOR);
  const rest = mid - sid * SID_FACTOR;
  return { sid, seq: Math.floor(rest / 4), cls: (rest % 4) as HitClass };
};
export const sessionRange = (sid: number): [number, number] => [sid * SID_FACTOR, (sid + 1) * SID_FACTOR - 1];
