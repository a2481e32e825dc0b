/**
 * The session snapshot format (save/restore specification): one JSON file
 *   {"version":"1.0","saved_at":ISO-8601,"file_prefix":...,"state":{...}}
 *
 * `state` carries two sets of fields, so that each side reads the other's files:
 * - the specification's own: agent_type ("code_agent"), root_dir, tool_group, model_group, model_name,
 *   disable_review, review_max_iterations, start_commit, messages, non_interactive;
 * - ours: agent, mode, model, permission_policy, thread_mode, title, thread_id.
 * On read only `root_dir` and `messages` are required; everything else is type-checked when present and
 * defaulted when absent (`model` from `model_name`, `agent` from `agent_type`...). `messages` are
 * OpenAI-compatible ({role, content, tool_calls?, tool_call_id?}). Readers accept every 1.x file (unknown
 * fields are kept and ignored) and refuse a newer major version. A snapshot never holds API keys or env values.
 */
import { AcpThreadsError } from "../errors";

export const SNAPSHOT_VERSION = "1.0";
export const SNAPSHOT_MAJOR = 1;
/** The specification's agent type for a coding-agent session (what its own implementation writes). */
export const SPEC_AGENT_TYPE = "code_agent";

export type SnapshotRole = "system" | "developer" | "user" | "assistant" | "tool";

export interface SnapshotToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface SnapshotMessage {
  role: SnapshotRole | string;
  /** A string, or OpenAI content parts (only text parts are read back); null for a tool-calls-only message. */
  content: string | { type: string; text?: string }[] | null;
  /** Assistant messages: the tools the model called (answered by `tool` messages with the same id). */
  tool_calls?: SnapshotToolCall[];
  tool_call_id?: string;
  name?: string;
  /** ISO-8601 time of the message (our extension; optional). */
  timestamp?: string;
  /**
   * User messages: the prompt's context chips (mentions, images by name), as the thread records them (our
   * extension since snapshot 1.1; optional, ignored by 1.0 readers). No file text, no image bytes.
   */
  acp_context?: unknown;
}

/** The specification's fields. Absent ones are written as null when we have no value for them. */
export interface SpecStateFields {
  /** "code_agent" for a coding-agent session (our older files: "acp" / "exec"). */
  agent_type: string;
  /** Absolute workspace folder of the session. */
  root_dir: string;
  tool_group?: string | null;
  model_group?: string | null;
  model_name?: string | null;
  disable_review?: boolean | null;
  review_max_iterations?: number | null;
  /** Git HEAD when the session started; null outside git or when unknown. */
  start_commit: string | null;
  messages: SnapshotMessage[];
  non_interactive: boolean;
}

/** Our fields; after `validateSnapshot` they are always filled in (defaults for files that lack them). */
export interface OwnStateFields {
  /** Agent id (codex, claude, gemini, opencode, a custom name; the agent_type for foreign files). */
  agent: string;
  /** The agent's session mode id, or "default". */
  mode: string;
  model: string | null;
  permission_policy: string;
  /** How the thread ran: "acp" (an ACP session) or "exec" (a one-shot CLI run). */
  thread_mode?: "acp" | "exec";
  title?: string | null;
  thread_id?: string | null;
}

export type SnapshotState = SpecStateFields & OwnStateFields & { [extra: string]: unknown };

export interface SessionSnapshot {
  version: string;
  saved_at: string;
  file_prefix: string;
  state: SnapshotState;
  [extra: string]: unknown;
}

type Check = [key: string, ok: (v: unknown) => boolean, what: string];
const isStr = (v: unknown) => typeof v === "string";
const strOrNull = (v: unknown) => v === null || typeof v === "string";
const REQUIRED_STATE: Check[] = [
  ["root_dir", (v) => typeof v === "string" && v.length > 0, "a non-empty string"],
  ["messages", Array.isArray, "an array"],
];
/** Checked only when present (null counts as absent for the specification's optional values). */
const OPTIONAL_STATE: Check[] = [
  ["agent_type", isStr, "a string"],
  ["tool_group", strOrNull, "a string or null"],
  ["model_group", strOrNull, "a string or null"],
  ["model_name", strOrNull, "a string or null"],
  ["disable_review", (v) => v === null || typeof v === "boolean", "true, false or null"],
  ["review_max_iterations", (v) => v === null || Number.isInteger(v), "an integer or null"],
  ["start_commit", strOrNull, "a string or null"],
  ["non_interactive", (v) => typeof v === "boolean", "true or false"],
  ["agent", isStr, "a string"],
  ["mode", isStr, "a string"],
  ["model", strOrNull, "a string or null"],
  ["permission_policy", isStr, "a string"],
  ["thread_mode", (v) => v === "acp" || v === "exec", "'acp' or 'exec'"],
  ["title", strOrNull, "a string or null"],
  ["thread_id", strOrNull, "a string or null"],
];

/** Text of a message's content (string or OpenAI parts). */
export function messageText(m: Pick<SnapshotMessage, "content">): string {
  if (typeof m.content === "string") return m.content;
  if (Array.isArray(m.content)) return m.content.map((p) => (typeof p?.text === "string" ? p.text : "")).join("");
  return "";
}

function checkMessage(m: unknown, i: number, fail: (msg: string) => Error): void {
  const msg = m as Record<string, unknown>;
  if (typeof m !== "object" || m === null || typeof msg.role !== "string")
    throw fail(`state.messages[${i}] has no 'role'`);
  if (!(typeof msg.content === "string" || msg.content === null || Array.isArray(msg.content)))
    throw fail(`state.messages[${i}].content must be a string, a list of parts or null`);
  if (msg.tool_calls !== undefined && msg.tool_calls !== null) {
    if (!Array.isArray(msg.tool_calls)) throw fail(`state.messages[${i}].tool_calls must be a list`);
    msg.tool_calls.forEach((c: unknown, j) => {
      const call = c as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
      if (typeof call?.id !== "string" || typeof call.function?.name !== "string")
        throw fail(`state.messages[${i}].tool_calls[${j}] needs an 'id' and a 'function.name'`);
    });
  }
}

/** Fills in our fields from the specification's (and defaults), in place. */
function withDefaults(state: Record<string, unknown>): SnapshotState {
  state.agent_type ??= SPEC_AGENT_TYPE;
  state.start_commit ??= null;
  state.non_interactive ??= false;
  state.agent ??= state.agent_type;
  state.mode ??= "default";
  state.model ??= (state.model_name as string | null | undefined) ?? null;
  // Nothing is ever run under it; "ask" is the safe reading when a file does not say.
  state.permission_policy ??= "ask";
  return state as SnapshotState;
}

/** Validates decoded JSON and fills in defaults; `source` names the file in errors. */
export function validateSnapshot(value: unknown, source: string): SessionSnapshot {
  const fail = (msg: string) => new AcpThreadsError("corrupt", `${source}: ${msg}`);
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw fail("not a session snapshot (expected a JSON object)");
  const snap = value as Record<string, unknown>;
  if (typeof snap.version !== "string") throw fail("missing field 'version'");
  const major = /^(\d+)\.(\d+)/.exec(snap.version);
  if (!major) throw fail(`unreadable version '${snap.version}'`);
  if (Number(major[1]) > SNAPSHOT_MAJOR) {
    throw new AcpThreadsError(
      "unsupported_version",
      `${source}: saved by a newer ACP Threads (snapshot format ${snap.version}; this version reads ${SNAPSHOT_MAJOR}.x). Upgrade ACP Threads to restore it.`,
    );
  }
  if (Number(major[1]) < SNAPSHOT_MAJOR) throw fail(`unsupported old snapshot format ${snap.version}`);
  if (typeof snap.saved_at !== "string" || Number.isNaN(Date.parse(snap.saved_at)))
    throw fail("missing or invalid field 'saved_at' (ISO-8601 time)");
  if (typeof snap.file_prefix !== "string") throw fail("missing field 'file_prefix'");
  if (typeof snap.state !== "object" || snap.state === null || Array.isArray(snap.state))
    throw fail("missing field 'state'");
  const state = snap.state as Record<string, unknown>;
  for (const [key, ok, what] of REQUIRED_STATE) {
    if (!(key in state)) throw fail(`missing field 'state.${key}'`);
    if (!ok(state[key])) throw fail(`field 'state.${key}' must be ${what}`);
  }
  for (const [key, ok, what] of OPTIONAL_STATE) {
    if (state[key] !== undefined && !ok(state[key])) throw fail(`field 'state.${key}' must be ${what}`);
  }
  (state.messages as unknown[]).forEach((m, i) => checkMessage(m, i, fail));
  withDefaults(state);
  return value as SessionSnapshot;
}
