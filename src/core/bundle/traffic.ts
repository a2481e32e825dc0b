/**
 * A thread's protocol traffic on disk (`<home>/traffic/<threadId>.ndjson`), the raw material of bug bundles.
 * The engine's protocol log is per agent process and bounded in memory; this follows it for one thread: every
 * JSON-RPC message of the thread's agent sessions (by `sessionId`, and the requests/responses that go with them),
 * the process-level ones (initialize, authenticate, session/new) and the agent's stderr. Secrets never reach
 * the disk: env values and MCP headers are dropped, key-like strings redacted. Size-capped with one rotation.
 */
import { readFile } from "node:fs/promises";
import type { ProtocolLog, ProtocolLogEntry } from "../acp/protocol-log";
import type { Disposable } from "../lifecycle";
import { REDACTED, redactSecrets } from "../redact";
import { AsyncAppender } from "../store/async-appender";
import { background } from "../util/unexpected";
import { rotatedPath } from "./traffic-path";

export type TrafficDirection = ProtocolLogEntry["direction"];

/** One line of a traffic file or a bundle: `m` a JSON-RPC message, or `x` text (stderr, notes, cut lines). */
export interface TrafficEntry {
  /** Milliseconds since the epoch. */
  t: number;
  /** `send` = client → agent, `recv` = agent → client. */
  d: TrafficDirection;
  m?: Record<string, unknown>;
  x?: string;
}

export const DEFAULT_TRAFFIC_MAX_BYTES = 16 * 1024 * 1024;
/** Lines queued for the disk beyond this are dropped (and noted in the file) rather than held in memory. */
export const TRAFFIC_MAX_PENDING_BYTES = 4 * 1024 * 1024;

type Msg = { id?: unknown; method?: unknown; params?: { sessionId?: unknown } & Record<string, unknown> };

/** Env values, MCP server env and headers: replaced, whatever they look like (they may be secrets). */
function scrubEnv(m: Msg): Msg {
  const p = m.params;
  if (!p || typeof p !== "object" || (!Array.isArray(p.env) && !Array.isArray(p.mcpServers))) return m;
  const hide = (list: unknown) =>
    Array.isArray(list)
      ? list.map((e) => (e && typeof e === "object" && "value" in e ? { ...e, value: REDACTED } : e))
      : list;
  const next: Record<string, unknown> = { ...p };
  if (Array.isArray(p.env)) next.env = hide(p.env);
  if (Array.isArray(p.mcpServers))
    next.mcpServers = p.mcpServers.map((s: Record<string, unknown>) =>
      s && typeof s === "object" ? { ...s, env: hide(s.env), headers: hide(s.headers) } : s,
    );
  return { ...m, params: next };
}

/**
 * One entry as its redacted JSON line (no newline). Parsed back only when the redaction changed something (to
 * check it kept the JSON whole); a message the redaction would break is kept as a note instead. `json`: the JSON
 * of `e.m` as the transport sent it (`JSON.stringify` of the same object), used instead of serializing it again
 * when nothing is scrubbed from it (the same bytes).
 */
export function redactedLine(e: TrafficEntry, json?: string): string {
  const m = e.m && (scrubEnv(e.m as Msg) as Record<string, unknown>);
  const raw =
    json !== undefined && m === e.m && e.x === undefined
      ? `{"t":${JSON.stringify(e.t)},"d":${JSON.stringify(e.d)},"m":${json}}`
      : JSON.stringify(m ? { ...e, m } : e);
  const line = redactSecrets(raw);
  if (line === raw) return line;
  try {
    JSON.parse(line);
    return line;
  } catch {
    return JSON.stringify({ t: e.t, d: "note", x: "a message was dropped: redacting it broke its JSON" });
  }
}

/** Redacts one entry; a message the redaction would break is kept as a note instead. */
export function redactEntry(e: TrafficEntry): TrafficEntry {
  return JSON.parse(redactedLine(e)) as TrafficEntry;
}

/** Whether `text` may be the JSON of an object (`{` … `}` around it, whitespace aside): else no parse is tried. */
function couldBeObject(text: string): boolean {
  let i = 0;
  let j = text.length - 1;
  while (i <= j && isJsonSpace(text.charCodeAt(i))) i++;
  while (j >= i && isJsonSpace(text.charCodeAt(j))) j--;
  return text.charCodeAt(i) === 0x7b && text.charCodeAt(j) === 0x7d; // { }
}
const isJsonSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * A protocol-log line as an entry (cut or non-JSON lines stay text). The message the transport had as an object
 * is taken as it is; only a line without it (a log filled by hand, a replay) is parsed.
 */
export function entryOf(e: ProtocolLogEntry): TrafficEntry {
  if (e.direction === "send" || e.direction === "recv") {
    if (e.message && !Array.isArray(e.message))
      return { t: e.at, d: e.direction, m: e.message as Record<string, unknown> };
    // a line the log cut (over its entry cap, it ends in "cut]") or that is not an object is not parsed at all
    if (couldBeObject(e.text))
      try {
        const m = JSON.parse(e.text) as unknown;
        if (m && typeof m === "object" && !Array.isArray(m))
          return { t: e.at, d: e.direction, m: m as Record<string, unknown> };
      } catch {
        // not JSON: kept as text
      }
  }
  return { t: e.at, d: e.direction, x: e.text };
}

export class TrafficRecorder implements Disposable {
  readonly #sessions = new Set<string>();
  /** Request ids (per direction of the request) that belong to this thread, to keep their responses. */
  readonly #ours = new Map<string, boolean>();
  readonly #out: AsyncAppender;
  #subs: Disposable[] = [];
  #closed = false;
  #done: Promise<void> | undefined;

  /** Lines go to the disk asynchronously (never a sync write on the caller's thread), bounded in memory. */
  constructor(
    readonly path: string,
    maxBytes: number = DEFAULT_TRAFFIC_MAX_BYTES,
  ) {
    this.#out = new AsyncAppender(path, {
      rotateAt: maxBytes,
      rotatedPath,
      maxPending: TRAFFIC_MAX_PENDING_BYTES,
      // a paced agent sends a line per read: gather them, one write per 50 ms instead of one per line
      lingerMs: 50,
      dropNote: (n) =>
        `${JSON.stringify({ t: Date.now(), d: "note", x: `${n} lines were dropped: the disk fell behind` })}\n`,
      // a full disk must not break the session: recording just stops
      onError: () => background(this.close(), "closing the traffic file"),
    });
  }

  /** Agent session ids of this thread (the agent may give a resumed thread a new one). */
  addSession(sessionId: string): void {
    this.#sessions.add(sessionId);
  }

  /** Follows `log` (and first takes what it holds already: initialize and session/new come before any thread). */
  follow(log: ProtocolLog): Disposable {
    for (const e of log.entries()) this.add(e);
    const sub = log.onLine((e) => this.add(e));
    this.#subs.push(sub);
    return sub;
  }

  add(raw: ProtocolLogEntry): void {
    if (this.#closed) return;
    const e = entryOf(raw);
    if (e.m && !this.#belongs(e.d, e.m as Msg)) return;
    // what we sent is `JSON.stringify` of the message (an agent's line may be spaced otherwise: serialized again)
    this.#out.writeLine(redactedLine(e, raw.direction === "send" && e.m === raw.message ? raw.text : undefined));
  }

  /** Resolves once every line added so far is on disk. */
  flush(): Promise<void> {
    return this.#out.flush();
  }

  /** Stops following; what is queued is still written (await the result to know it is on disk). */
  close(): Promise<void> {
    this.#closed = true;
    for (const s of this.#subs.splice(0)) s.dispose();
    return (this.#done ??= this.#out.close());
  }

  dispose(): void {
    background(this.close(), "closing the traffic file");
  }

  #belongs(d: TrafficDirection, m: Msg): boolean {
    const sid = m.params && typeof m.params === "object" ? m.params.sessionId : undefined;
    const isRequest = typeof m.method === "string" && m.id !== undefined;
    if (typeof m.method === "string") {
      const ours = typeof sid !== "string" || this.#sessions.has(sid);
      if (isRequest) this.#ours.set(`${d}:${String(m.id)}`, ours);
      return ours;
    }
    // a response: it answers a request that went the other way
    const key = `${d === "send" ? "recv" : "send"}:${String(m.id)}`;
    const ours = this.#ours.get(key);
    this.#ours.delete(key);
    return ours ?? true;
  }
}

/** A file's text, null when there is none. */
const textOrNone = (path: string): Promise<string | null> =>
  readFile(path, "utf8").catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return null;
    throw err;
  });

/** Every entry recorded for a thread, oldest first (the rotated part, then the current file). */
export async function readTraffic(path: string): Promise<{ entries: TrafficEntry[]; rotated: boolean }> {
  const entries: TrafficEntry[] = [];
  const [older, newer] = await Promise.all([rotatedPath(path), path].map(textOrNone));
  for (const text of [older, newer]) {
    if (text === null) continue;
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        entries.push(JSON.parse(line) as TrafficEntry);
      } catch {
        // a torn last line (the writer died mid-write)
      }
    }
  }
  return { entries, rotated: older !== null };
}
