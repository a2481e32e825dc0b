/**
 * The session snapshot format (save/restore specification): one JSON file
 *   {"version":"1.0","saved_at":ISO-8601,"file_prefix":...,"state":{agent_type, root_dir, agent, mode, model,
 *    permission_policy, start_commit, messages, non_interactive, ...}}
 * `messages` are OpenAI-compatible ({role, content}). Readers accept every 1.x file (unknown fields are kept
 * and ignored) and refuse a newer major version. A snapshot never holds API keys or env values.
 */
import { AcpThreadsError } from "../errors";

export const SNAPSHOT_VERSION = "1.0";
export const SNAPSHOT_MAJOR = 1;

export type SnapshotRole = "system" | "user" | "assistant" | "tool";

export interface SnapshotMessage {
  role: SnapshotRole | string;
  /** A string, or OpenAI content parts (only text parts are read back). */
  content: string | { type: string; text?: string }[] | null;
  tool_call_id?: string;
  name?: string;
  /** ISO-8601 time of the message (our extension; optional). */
  timestamp?: string;
}

export interface SnapshotState {
  /** How the agent ran: "acp" (an ACP session) or "exec" (a one-shot CLI run). */
  agent_type: string;
  /** Absolute workspace folder of the session. */
  root_dir: string;
  /** Agent id (codex, claude, gemini, opencode, or a custom name). */
  agent: string;
  /** The agent's session mode id, or "default". */
  mode: string;
  model: string | null;
  permission_policy: string;
  /** Git HEAD when the session started; null outside git or when unknown. */
  start_commit: string | null;
  messages: SnapshotMessage[];
  non_interactive: boolean;
  /** Extensions (optional): title, thread_id, agent_session_id, and whatever newer 1.x writers add. */
  title?: string | null;
  thread_id?: string | null;
  [extra: string]: unknown;
}

export interface SessionSnapshot {
  version: string;
  saved_at: string;
  file_prefix: string;
  state: SnapshotState;
  [extra: string]: unknown;
}

const REQUIRED_STATE: [keyof SnapshotState, (v: unknown) => boolean, string][] = [
  ["agent_type", (v) => typeof v === "string", "a string"],
  ["root_dir", (v) => typeof v === "string" && v.length > 0, "a non-empty string"],
  ["agent", (v) => typeof v === "string", "a string"],
  ["mode", (v) => typeof v === "string", "a string"],
  ["model", (v) => v === null || typeof v === "string", "a string or null"],
  ["permission_policy", (v) => typeof v === "string", "a string"],
  ["start_commit", (v) => v === null || typeof v === "string", "a string or null"],
  ["messages", Array.isArray, "an array"],
  ["non_interactive", (v) => typeof v === "boolean", "true or false"],
];

/** Text of a message's content (string or OpenAI parts). */
export function messageText(m: SnapshotMessage): string {
  if (typeof m.content === "string") return m.content;
  if (Array.isArray(m.content)) return m.content.map((p) => (typeof p?.text === "string" ? p.text : "")).join("");
  return "";
}

/** Validates decoded JSON; `source` names the file in errors. */
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
  (state.messages as unknown[]).forEach((m, i) => {
    const msg = m as Record<string, unknown>;
    if (typeof m !== "object" || m === null || typeof msg.role !== "string")
      throw fail(`state.messages[${i}] has no 'role'`);
    if (!(typeof msg.content === "string" || msg.content === null || Array.isArray(msg.content)))
      throw fail(`state.messages[${i}].content must be a string, a list of parts or null`);
  });
  return value as SessionSnapshot;
}
