/**
 * Importing an agent's own sessions as threads (#36): `session/list` (every page), then, for each session we do not
 * have, `session/load` in a process started in the session's folder, its replay recorded as a new thread (origin
 * `agent-import`, linked to the agent session so a resume loads the same session). Idempotent: a session we have
 * is left alone unless the agent lists it with a newer `updatedAt` than the import recorded; then it is loaded
 * again and its thread replaced whole (replay-thread.ts) — unless the thread was continued here (a second
 * `session_open`) or is one we started, which are never replaced. One agent process per folder, stopped (process
 * group) once that folder's sessions are done; a failed load restarts it for the next session. One import per
 * agent at a time (a lock beside the threads). Per-session errors are counted, never fatal; `signal` stops
 * between and during loads.
 */
import type { SessionInfo as AcpSessionInfo } from "@agentclientprotocol/sdk";
import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { untilAborted } from "../abort";
import type { AcpAgentRuntime } from "../acp/agent-runtime";
import { killGroup } from "../acp/spawn";
import { AcpThreadsError, errorMessage } from "../errors";
import type { AgentImportOrigin, AgentRef, MetadataPatch, ThreadStartRecord } from "../model/records";
import { isInside } from "../platform/paths";
import { lockedError, tryAcquireLockAsync } from "../store/file-lock";
import { gitInfoAsync } from "../store/git-info";
import { readRecordsAsync } from "../store/jsonl-reader";
import { foldMetadata } from "../model/metadata";
import { newThreadId } from "../store/thread-id";
import { knownSessions, type KnownSession } from "./known-sessions";
import { placeThread, stageThread } from "./replay-thread";
import type { ImportSummary, SessionOutcome } from "./import-summary";

export { summaryLine, type ImportAction, type ImportSummary, type SessionOutcome } from "./import-summary";

export const AGENT_IMPORT_ORIGIN = "agent-import";

export interface ImportProgress {
  /** Sessions decided so far, of `total`. */
  done: number;
  total: number;
  /** The session being loaded now (absent once all are done). */
  current?: AcpSessionInfo;
  outcome?: SessionOutcome;
}

export interface AgentImportOptions {
  threadsDir: string;
  agent: AgentRef;
  /** Starts (lazily) the agent with `cwd` as its folder; the import stops it. */
  startAgent(cwd: string): AcpAgentRuntime | Promise<AcpAgentRuntime>;
  /** Only the sessions of this folder; undefined: every folder the agent lists (`--all`). */
  cwd?: string;
  /** Where the listing process runs when `cwd` is undefined. */
  listFrom: string;
  dryRun?: boolean;
  signal?: AbortSignal;
  onProgress?(p: ImportProgress): void;
}

/** The agent process, stopped with its process group (npm launchers leave children behind otherwise). */
async function stopAgent(rt: AcpAgentRuntime): Promise<void> {
  if (rt.pid !== undefined && rt.pid > 0) killGroup(rt.pid, "SIGTERM");
  await rt.close().catch(() => {});
}

const sameFolder = (a: string, b: string) => isInside(resolve(a), resolve(b)) && isInside(resolve(b), resolve(a));
const timeOf = (iso: string | null | undefined) => (iso ? Date.parse(iso) : NaN);

/**
 * The agent's sessions of `cwd` (every folder when undefined), every page; a clear error naming the agent when it
 * cannot list or replay them. `rt` may be a running session's agent: listing starts nothing new.
 */
export async function listAgentSessions(
  rt: AcpAgentRuntime,
  o: { name: string; cwd?: string; signal?: AbortSignal },
): Promise<AcpSessionInfo[]> {
  const caps = await untilAborted(rt.start(), o.signal);
  if (!caps.agentCapabilities.sessionCapabilities?.list)
    throw new AcpThreadsError(
      "protocol",
      `${o.name} does not list its sessions over ACP (no sessionCapabilities.list in its initialize answer): there is nothing to import from it`,
    );
  if (!caps.agentCapabilities.loadSession)
    throw new AcpThreadsError(
      "protocol",
      `${o.name} lists its sessions but cannot replay them (no loadSession in its initialize answer): nothing can be imported from it`,
    );
  const all = await untilAborted(rt.listSessions(o.cwd), o.signal);
  // an agent may ignore the cwd filter; the cursor loop's guard is in listAllSessions
  return o.cwd ? all.filter((s) => typeof s.cwd === "string" && sameFolder(s.cwd, o.cwd!)) : all;
}

/** The listed sessions an import would bring in (new, or grown since their import), without loading any. */
export async function freshSessions(
  threadsDir: string,
  agentId: string,
  sessions: readonly AcpSessionInfo[],
): Promise<AcpSessionInfo[]> {
  const known = await knownSessions(threadsDir, agentId);
  const out: AcpSessionInfo[] = [];
  for (const s of sessions)
    if ((await plan(s, known.get(s.sessionId), threadsDir).catch(() => undefined))?.action !== "unchanged") out.push(s);
  return out;
}

/** What an import does with a listed session, before loading anything. */
async function plan(
  s: AcpSessionInfo,
  known: KnownSession | undefined,
  threadsDir: string,
): Promise<{ action: "imported" | "updated" } | { action: "unchanged"; reason: string }> {
  if (!known) return { action: "imported" };
  if (!known.imported) return { action: "unchanged", reason: "a thread started here" };
  const listed = timeOf(s.updatedAt);
  const had = timeOf(known.imported.updatedAt);
  const newer = Number.isFinite(listed) && (!Number.isFinite(had) || listed > had);
  if (!newer) return { action: "unchanged", reason: "up to date" };
  const continued = await continuedHere(join(threadsDir, `${known.threadId}.jsonl`));
  return continued ? { action: "unchanged", reason: "continued in ACP Threads" } : { action: "updated" };
}

/** A thread resumed here after its import has a second `session_open`: its file is ours now, never replaced. */
async function continuedHere(path: string): Promise<boolean> {
  const { records } = await readRecordsAsync(path);
  return records.filter((r) => r.kind === "session_open").length > 1;
}

/** The user's own metadata of a thread being replaced (a rename, tags), carried into the new file. */
async function userMetadata(path: string): Promise<MetadataPatch> {
  const m = foldMetadata((await readRecordsAsync(path)).records);
  if (!m) return {};
  return {
    ...(m.titleByUser && m.title ? { title: m.title, titleByUser: true } : {}),
    ...(m.tags.length ? { tags: m.tags } : {}),
  };
}

export async function importAgentSessions(o: AgentImportOptions): Promise<ImportSummary> {
  const summary: ImportSummary = {
    agent: o.agent.id,
    listed: 0,
    imported: 0,
    updated: 0,
    unchanged: 0,
    failed: 0,
    dryRun: !!o.dryRun,
    cancelled: false,
    sessions: [],
  };
  const lockPath = join(
    o.threadsDir,
    `.agent-import-${createHash("sha256").update(o.agent.id).digest("hex").slice(0, 16)}`,
  );
  await mkdir(o.threadsDir, { recursive: true, mode: 0o700 });
  const lock = o.dryRun
    ? undefined
    : await tryAcquireLockAsync(lockPath, { label: `importing ${o.agent.name} sessions` });
  if (lock && !lock.ok) throw lockedError(lockPath, lock.holder);
  const listing = await o.startAgent(o.cwd ?? o.listFrom);
  const agents = new Map<string, AcpAgentRuntime>();
  try {
    let sessions: AcpSessionInfo[];
    try {
      sessions = await listAgentSessions(listing, { name: o.agent.name, cwd: o.cwd, signal: o.signal });
    } catch (err) {
      await stopAgent(listing);
      throw err;
    }
    // the listing process serves its own folder's loads; other folders start their own, one at a time
    agents.set(resolve(o.cwd ?? o.listFrom), listing);
    summary.listed = sessions.length;
    const known = await knownSessions(o.threadsDir, o.agent.id);
    const byFolder = [...sessions].sort((a, b) => (a.cwd < b.cwd ? -1 : a.cwd > b.cwd ? 1 : 0));
    for (const s of byFolder) {
      if (o.signal?.aborted) {
        summary.cancelled = true;
        break;
      }
      o.onProgress?.({ done: summary.sessions.length, total: sessions.length, current: s });
      const outcome = await importOne(o, s, known.get(s.sessionId), agents);
      if (outcome.reason === "stopped" && o.signal?.aborted) {
        summary.cancelled = true;
        break;
      }
      summary.sessions.push(outcome);
      summary[outcome.action]++;
      o.onProgress?.({ done: summary.sessions.length, total: sessions.length, outcome });
    }
    return summary;
  } finally {
    for (const rt of agents.values()) await stopAgent(rt);
    if (lock?.ok) await lock.release();
  }
}

/** The one agent process for `cwd`: others are stopped first (one process at a time). */
async function agentFor(
  o: AgentImportOptions,
  cwd: string,
  agents: Map<string, AcpAgentRuntime>,
): Promise<AcpAgentRuntime> {
  const key = resolve(cwd);
  const had = agents.get(key);
  if (had) return had;
  for (const [k, rt] of agents) {
    agents.delete(k);
    await stopAgent(rt);
  }
  const rt = await o.startAgent(key);
  agents.set(key, rt);
  return rt;
}

async function importOne(
  o: AgentImportOptions,
  s: AcpSessionInfo,
  known: KnownSession | undefined,
  agents: Map<string, AcpAgentRuntime>,
): Promise<SessionOutcome> {
  const base = { sessionId: s.sessionId, cwd: s.cwd, title: s.title ?? null, updatedAt: s.updatedAt ?? null };
  try {
    // the agent names the folder its process is started in and the thread works in: only a whole absolute path
    if (typeof s.cwd !== "string" || !isAbsolute(s.cwd) || s.cwd.split(/[\\/]/).includes(".."))
      throw new AcpThreadsError(
        "protocol",
        `the agent listed the session's folder as '${String(s.cwd)}', not an absolute path without '..'`,
      );
    const decided = await plan(s, known, o.threadsDir);
    if (decided.action === "unchanged") return { ...base, ...decided, threadId: known!.threadId };
    const threadId = known?.threadId ?? newThreadId();
    if (o.dryRun) return { ...base, action: decided.action, ...(known ? { threadId } : {}) };
    const rt = await agentFor(o, s.cwd, agents);
    let replay;
    try {
      replay = (await untilAborted(rt.loadSession(s.sessionId), o.signal)).replay;
    } catch (err) {
      // the next session gets a fresh process: this one may be stuck in the failed load (or dead)
      agents.delete(resolve(s.cwd));
      await stopAgent(rt);
      throw err;
    }
    await rt.closeSession(s.sessionId).catch(() => {});
    const dest = join(o.threadsDir, `${threadId}.jsonl`);
    const info = rt.getCapabilities()?.agentInfo;
    const staged = await stageThread({
      threadsDir: o.threadsDir,
      start: await startRecord(o.agent, s, threadId),
      replay,
      ...(info?.name ? { agentInfo: { name: info.name, ...(info.version ? { version: info.version } : {}) } } : {}),
      ...(known ? { keep: await userMetadata(dest) } : {}),
    });
    await placeThread(staged, dest, async () => {
      if (known && (await continuedHere(dest)))
        throw new AcpThreadsError("usage", "the thread was continued in ACP Threads while it was imported");
    });
    return { ...base, action: decided.action, threadId };
  } catch (err) {
    return { ...base, action: "failed", reason: errorMessage(err), ...(known ? { threadId: known.threadId } : {}) };
  }
}

async function startRecord(agent: AgentRef, s: AcpSessionInfo, threadId: string): Promise<ThreadStartRecord> {
  const listed = timeOf(s.updatedAt);
  const origin: AgentImportOrigin = {
    kind: AGENT_IMPORT_ORIGIN,
    source: agent.id,
    agentSessionId: s.sessionId,
    updatedAt: s.updatedAt ?? null,
  };
  return {
    v: 1,
    ts: (Number.isFinite(listed) ? new Date(listed) : new Date()).toISOString(),
    kind: "thread_start",
    threadId,
    agent,
    mode: "acp",
    cwd: s.cwd,
    ...(await gitInfoAsync(s.cwd)),
    ...(s.title?.trim() ? { title: s.title.trim() } : {}),
    agentSessionId: s.sessionId,
    origin,
  };
}
