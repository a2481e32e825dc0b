/**
 * The thread JSONL record schema: one JSON object per line, `{v, ts, kind, ...}`.
 *
 * A thread file is canonical history. It is append-only and written by one process; metadata is never
 * inferred by the store — it changes only through explicit `meta_patch` records (Codex ThreadStore rule:
 * an absent field means unchanged, an explicit null means cleared). Readers of other areas (recall, exec)
 * import these types and `parseRecord`.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { ContextRef } from "./context";
import type { ToolCallState } from "./events";
import type { AgentInfoRef, TurnUsage } from "./usage";

/** Bumped only for incompatible changes; new optional fields and new kinds keep version 1. */
export const THREAD_FORMAT_VERSION = 1;

export const THREAD_STATUSES = ["live", "idle", "interrupted", "failed", "done"] as const;
export type ThreadStatus = (typeof THREAD_STATUSES)[number];
export type ThreadMode = "acp" | "exec";
/**
 * Who started a thread (#36): the editor, the CLI at a terminal, automation (the CLI without a TTY on stdin,
 * Best of N candidates), an exec run, or an import of an agent's own session. Open: later kinds read as they are.
 */
export type ThreadStartedFrom = "editor" | "cli" | "automation" | "exec" | "agent-import" | (string & {});

/** The agent as launched. Never carries env values (they may be secrets). */
export interface AgentRef {
  id: string;
  name: string;
  command: string;
  args?: string[];
}

export interface ThreadCounters {
  turns?: number;
  userMessages?: number;
  agentMessages?: number;
  toolCalls?: number;
  /** User messages steered into a running turn ("Send now"), counted in `userMessages` too; absent until one is. */
  steered?: number;
}

/** A literal metadata change. `undefined`/absent = unchanged, `null` = cleared. */
export interface MetadataPatch {
  title?: string | null;
  status?: ThreadStatus | null;
  agentSessionId?: string | null;
  counters?: ThreadCounters | null;
  /** Exec runs that leave a Codex/Claude transcript of their own. */
  transcriptPath?: string | null;
  tags?: string[] | null;
  model?: string | null;
  /** When the patch marks an interruption or failure: why. */
  reason?: string | null;
  /** Threads this one was handed off to (the whole list; the new thread's origin names this one). */
  handedOffTo?: string[] | null;
  /** Threads forked from this one (the whole list; each fork's origin names this one and the message). */
  forks?: string[] | null;
  /** The git worktree the thread works in (#25); null: it was discarded. */
  worktree?: WorktreeRef | null;
  /** The user named the thread (a rename): the agent's `session_info_update` titles no longer replace it. */
  titleByUser?: boolean | null;
  /** Archived (#36): out of the Sessions view and `threads list` unless asked for; still in recall. */
  archived?: boolean | null;
  /** The folders the thread's sessions were allowed to write (their path guard's roots; thread/folders.ts). */
  folders?: string[] | null;
}

/** A thread's own git worktree: where it is, the repository it was made from, and the commit it started at. */
export interface WorktreeRef {
  /** Absolute folder of the worktree (the session's cwd is this folder or the same subfolder in it). */
  path: string;
  /** Absolute top of the repository's main working tree. */
  repo: string;
  /** The commit the worktree was created at (full hash). */
  base: string;
  /** ISO-8601 time it was created. */
  createdAt: string;
}

interface Base {
  v: typeof THREAD_FORMAT_VERSION;
  /** ISO-8601 time the record was written. */
  ts: string;
}

export interface ThreadStartRecord extends Base {
  kind: "thread_start";
  threadId: string;
  agent: AgentRef;
  mode: ThreadMode;
  cwd: string;
  repoRoot: string | null;
  gitHead: string | null;
  title?: string;
  agentSessionId?: string;
  /** Who started it (#36); threads written before the field are guessed (metadata.ts `startedFromOf`). */
  startedFrom?: ThreadStartedFrom;
  /** Where the thread came from when it was not started live (a restored snapshot, an import, a handoff). */
  origin?: ThreadOrigin;
}
export interface ThreadOrigin {
  /** `agent-import`: a session the agent listed (`session/list`) and replayed (`session/load`); see AgentImportOrigin. */
  kind: "snapshot" | "import" | "fork" | "handoff" | "agent-import";
  source?: string;
  snapshot?: SnapshotOrigin;
  /** A fork: the source thread's message (numbered as `threads show` numbers them) it was forked after. */
  messageIndex?: number;
  /** An agent import: the agent's session id (the thread's `agentSessionId` too, which resume loads). */
  agentSessionId?: string;
  /** An agent import: the session's `updatedAt` as the agent listed it when it was imported (a newer one re-imports). */
  updatedAt?: string | null;
}
/** The origin of a thread imported from an agent's own session list: `source` is the agent's id. */
export type AgentImportOrigin = ThreadOrigin & { kind: "agent-import"; source: string; agentSessionId: string };
/** What a restored snapshot carried that has no home in our records, so that an export writes it back. */
export interface SnapshotOrigin {
  file_prefix?: string;
  /** The snapshot's state fields other than messages, root_dir, start_commit, model, title and ids. */
  state: Record<string, unknown>;
}
export interface UserMessageRecord extends Base {
  kind: "user_message";
  messageId: string;
  /** The prompt as typed, each context chip as `@label`. */
  text: string;
  /**
   * The prompt's context chips (mentions, images), in order; never file text or image bytes (images sit in
   * `threads/<threadId>.assets/`). Optional: absent in records from before it existed, ignored by older
   * readers, and read leniently (invalid entries are dropped, the message is kept).
   */
  context?: ContextRef[];
  /** Sent into the agent's running turn (`_session/steering`), not as a turn of its own. */
  steered?: boolean;
}
/**
 * Streamed chunks are coalesced, never one line per chunk: usually one record per message. A long or slow
 * message may be flushed in parts (size/time limits bound what a crash can lose); consecutive records with
 * the same messageId (and kind) are one message — readers join them (see thread/conversation.ts).
 */
export interface AgentMessageRecord extends Base {
  kind: "agent_message";
  messageId: string;
  text: string;
}
export interface ThoughtRecord extends Base {
  kind: "thought";
  messageId: string;
  text: string;
}
/** The final (or last known, at turn end) state of a tool call. */
export interface ToolCallRecord extends Base {
  kind: "tool_call";
  toolCall: ToolCallState;
}
export interface PlanRecord extends Base {
  kind: "plan";
  entries: acp.PlanEntry[];
}
/** A permission request summary and its outcome (the chosen option's name is kept, the other offered options are not). */
export interface PermissionRecord extends Base {
  kind: "permission";
  toolCallId: string;
  title: string;
  toolKind: string;
  optionId: string | null;
  optionKind: string | null;
  /** The chosen option's name, env values and key-like strings left out (option-label.ts); absent in older records. */
  optionName?: string;
  decidedBy: "policy" | "remembered" | "user" | "cancelled";
  /** Who answered, for a question of the thread host (the client that answered first); absent in older records. */
  answeredBy?: string;
  /** The readable rule that decided, when one did (`allow execute "npm test"`). */
  rule?: string;
  /** Why, as the card says it ("allowed by rule: npm test", "asked: outside the workspace"). */
  reason?: string;
  /** The request's paths outside the session's roots. */
  outside?: string[];
}
export interface UsageRecord extends Base {
  kind: "usage";
  used: number;
  size: number;
  cost?: { amount: number; currency: string } | null;
}
/** A context compaction; `windowId` is null for older items that had none (resume falls back to counting). */
export interface CompactionRecord extends Base {
  kind: "compaction";
  windowId: string | null;
  summary: string;
  /** A system message restored from a snapshot: instructions kept verbatim rather than a summary. */
  system?: boolean;
}
/** Bounded output of an exec run: `text` may be a head/tail excerpt, `bytes` is the total seen. */
export interface ExecOutputRecord extends Base {
  kind: "exec_output";
  stream: "stdout" | "stderr" | "pty";
  text: string;
  bytes: number;
  truncated?: boolean;
}
export interface ExecExitRecord extends Base {
  kind: "exec_exit";
  exitCode: number | null;
  signal: string | null;
  durationMs?: number;
}
export interface TurnEndRecord extends Base {
  kind: "turn_end";
  stopReason: string;
  /** Token usage the agent reported for this turn (absent when it reported none). */
  usage?: TurnUsage;
}
/**
 * An agent session was opened for the thread (new, loaded, resumed or seeded) by a fresh connection: cumulative
 * figures the agent reports (session cost) restart from here.
 */
export interface SessionOpenRecord extends Base {
  kind: "session_open";
  agentSessionId: string;
  origin: "new" | "load" | "resume" | "seeded";
  agentInfo?: AgentInfoRef;
}
export interface ErrorRecord extends Base {
  kind: "error";
  message: string;
  /** The agent's error code, `model_failure`, or PROMPT_UNSENT (the host's own failure, not the agent's). */
  code?: string | number;
}
/** An `error` record's code: the host could not prepare the prompt (its image not kept), so the agent never saw it. */
export const PROMPT_UNSENT = "prompt_unsent";
export interface MetaPatchRecord extends Base {
  kind: "meta_patch";
  patch: MetadataPatch;
}

export type ThreadRecord =
  | ThreadStartRecord
  | UserMessageRecord
  | AgentMessageRecord
  | ThoughtRecord
  | ToolCallRecord
  | PlanRecord
  | PermissionRecord
  | UsageRecord
  | CompactionRecord
  | ExecOutputRecord
  | ExecExitRecord
  | TurnEndRecord
  | SessionOpenRecord
  | ErrorRecord
  | MetaPatchRecord;
export type RecordKind = ThreadRecord["kind"];

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A record before it is stamped with `v` and `ts`. */
export type RecordInput = DistributiveOmit<ThreadRecord, "v" | "ts">;

export function stampRecord(input: RecordInput, now: Date = new Date()): ThreadRecord {
  return { v: THREAD_FORMAT_VERSION, ts: now.toISOString(), ...input } as ThreadRecord;
}

// ---- validation -------------------------------------------------------------------------------------------

type FieldType =
  | "string"
  | "number"
  | "object"
  | "array"
  | "string?"
  | "number?"
  | "string|null"
  | "number|null"
  | "object?"
  | "array?";
const REQUIRED: Record<RecordKind, Record<string, FieldType>> = {
  thread_start: {
    threadId: "string",
    agent: "object",
    mode: "string",
    cwd: "string",
    repoRoot: "string|null",
    gitHead: "string|null",
    title: "string?",
    agentSessionId: "string?",
    startedFrom: "string?",
    origin: "object?",
  },
  user_message: { messageId: "string", text: "string" },
  agent_message: { messageId: "string", text: "string" },
  thought: { messageId: "string", text: "string" },
  tool_call: { toolCall: "object" },
  plan: { entries: "array" },
  permission: {
    toolCallId: "string",
    title: "string",
    toolKind: "string",
    optionId: "string|null",
    optionKind: "string|null",
    optionName: "string?",
    decidedBy: "string",
    answeredBy: "string?",
    rule: "string?",
    reason: "string?",
    outside: "array?",
  },
  usage: { used: "number", size: "number" },
  compaction: { windowId: "string|null", summary: "string" },
  exec_output: { stream: "string", text: "string", bytes: "number" },
  exec_exit: { exitCode: "number|null", signal: "string|null", durationMs: "number?" },
  turn_end: { stopReason: "string", usage: "object?" },
  session_open: { agentSessionId: "string", origin: "string", agentInfo: "object?" },
  error: { message: "string" },
  meta_patch: { patch: "object" },
};
export const RECORD_KINDS = Object.keys(REQUIRED) as RecordKind[];

function typeOk(value: unknown, t: FieldType): boolean {
  const base = t.replace(/\?$|\|null$/, "");
  if (value === undefined) return t.endsWith("?");
  if (value === null) return t.endsWith("|null");
  if (base === "array") return Array.isArray(value);
  if (base === "object") return typeof value === "object" && !Array.isArray(value);
  return typeof value === base;
}

const PATCH_FIELDS: Record<keyof MetadataPatch, (v: unknown) => boolean> = {
  title: (v) => typeof v === "string",
  status: (v) => typeof v === "string" && (THREAD_STATUSES as readonly string[]).includes(v),
  agentSessionId: (v) => typeof v === "string",
  counters: (v) =>
    typeof v === "object" && !Array.isArray(v) && Object.values(v as object).every((n) => typeof n === "number"),
  transcriptPath: (v) => typeof v === "string",
  tags: (v) => Array.isArray(v) && v.every((t) => typeof t === "string"),
  model: (v) => typeof v === "string",
  reason: (v) => typeof v === "string",
  handedOffTo: (v) => Array.isArray(v) && v.every((t) => typeof t === "string"),
  forks: (v) => Array.isArray(v) && v.every((t) => typeof t === "string"),
  titleByUser: (v) => typeof v === "boolean",
  archived: (v) => typeof v === "boolean",
  folders: (v) => Array.isArray(v) && v.every((f) => typeof f === "string"),
  worktree: (v) =>
    typeof v === "object" &&
    v !== null &&
    ["path", "repo", "base", "createdAt"].every((k) => typeof (v as Record<string, unknown>)[k] === "string"),
};

function validatePatch(patch: Record<string, unknown>): string | undefined {
  for (const [key, value] of Object.entries(patch)) {
    const check = PATCH_FIELDS[key as keyof MetadataPatch];
    if (!check) continue; // unknown patch fields from newer 1.x writers are kept but ignored
    if (value !== null && value !== undefined && !check(value)) return `meta_patch field '${key}' has an invalid value`;
  }
  return undefined;
}

/** Checks a decoded value; returns an error message, or undefined when it is a valid record. */
export function validateRecord(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const rec = value as Record<string, unknown>;
  if (typeof rec.v !== "number") return "missing format version 'v'";
  if (rec.v > THREAD_FORMAT_VERSION)
    return `record format v${rec.v} is newer than this ACP Threads (v${THREAD_FORMAT_VERSION}); upgrade ACP Threads`;
  if (rec.v < 1) return `invalid format version ${rec.v}`;
  if (typeof rec.ts !== "string" || Number.isNaN(Date.parse(rec.ts))) return "missing or invalid timestamp 'ts'";
  if (typeof rec.kind !== "string") return "missing 'kind'";
  const fields = REQUIRED[rec.kind as RecordKind];
  if (!fields) return `unknown record kind '${rec.kind}'`;
  for (const [name, t] of Object.entries(fields)) {
    if (!typeOk(rec[name], t)) return `${rec.kind}: field '${name}' must be ${t.replace("?", " (optional)")}`;
  }
  if (rec.kind === "meta_patch") return validatePatch(rec.patch as Record<string, unknown>);
  if (rec.kind === "tool_call" && typeof (rec.toolCall as { toolCallId?: unknown }).toolCallId !== "string") {
    return "tool_call: toolCall.toolCallId must be string";
  }
  return undefined;
}

export type ParseResult = { ok: true; record: ThreadRecord } | { ok: false; error: string };

/** Parses one JSONL line (without its newline). Bad lines get a clear error, never an exception. */
export function parseRecord(line: string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { ok: false, error: `invalid JSON: ${(err as Error).message}` };
  }
  const error = validateRecord(value);
  return error ? { ok: false, error } : { ok: true, record: value as ThreadRecord };
}

export function serializeRecord(record: ThreadRecord): string {
  return JSON.stringify(record) + "\n";
}
