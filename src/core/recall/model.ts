/** Shapes shared by the recall parsers, importer and query side. */

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
}

/** One parser per file; its state is JSON so a tail import resumes where the last one stopped. */
export interface TranscriptParser<S> {
  readonly state: S;
  /** Feeds one parsed JSON line; returns the messages it produced. */
  feed(record: unknown, line: number): ParsedMessage[];
  meta(): SessionMeta;
  /** Records of a type this parser does not know (skipped, counted). */
  unknown: number;
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

export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
