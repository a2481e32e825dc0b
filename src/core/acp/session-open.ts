/**
 * Opening sessions: `session/new`, `session/load` (replay before the response, so the session is registered
 * first), `session/resume`, and the load → resume → new ladder of `ensureSession`.
 */
import {
  methods,
  type ClientContext,
  type InitializeResponse,
  type McpServer,
  type SessionInfo as AcpSessionInfo,
} from "@agentclientprotocol/sdk";
import type { RuntimeEvent } from "../model/events";
import type { Logger } from "../log";
import type { SessionInfo, SessionRequest } from "./runtime";
import { SessionState } from "./session-state";
import type { UpdateQueue } from "./update-queue";

/** `SessionInfo` plus the events an agent replayed while loading (empty for new / resumed sessions). */
export interface OpenedSession extends SessionInfo {
  replay: RuntimeEvent[];
}

export interface SessionOpenContext {
  agent: ClientContext;
  init: InitializeResponse;
  cwd: string;
  mcpServers: McpServer[];
  additionalDirectories: string[];
  sessions: Map<string, SessionState>;
  queue: UpdateQueue;
  logger: Logger;
  /** Runs a request, authenticating and retrying once on `auth_required`. */
  withAuth<T>(fn: () => Promise<T>): Promise<T>;
}

function extraDirs(ctx: SessionOpenContext): { additionalDirectories?: string[] } {
  const supported = ctx.init.agentCapabilities?.sessionCapabilities?.additionalDirectories;
  return supported && ctx.additionalDirectories.length ? { additionalDirectories: ctx.additionalDirectories } : {};
}

export async function newSession(ctx: SessionOpenContext): Promise<OpenedSession> {
  const res = await ctx.withAuth(() =>
    ctx.agent.request(methods.agent.session.new, { cwd: ctx.cwd, mcpServers: ctx.mcpServers, ...extraDirs(ctx) }),
  );
  if (!ctx.sessions.has(res.sessionId)) ctx.sessions.set(res.sessionId, new SessionState(res.sessionId, ctx.cwd));
  return { sessionId: res.sessionId, origin: "new", modes: res.modes, configOptions: res.configOptions, replay: [] };
}

export async function loadSession(ctx: SessionOpenContext, sessionId: string): Promise<OpenedSession> {
  // Register before sending: the agent replays the conversation as updates before it answers.
  const session = ctx.sessions.get(sessionId) ?? new SessionState(sessionId, ctx.cwd);
  ctx.sessions.set(sessionId, session);
  const replay: RuntimeEvent[] = [];
  session.sink = (event) => replay.push(event);
  try {
    const res = await ctx.withAuth(() =>
      ctx.agent.request(methods.agent.session.load, {
        sessionId,
        cwd: ctx.cwd,
        mcpServers: ctx.mcpServers,
        ...extraDirs(ctx),
      }),
    );
    await ctx.queue.idle(sessionId);
    return { sessionId, origin: "load", modes: res?.modes, configOptions: res?.configOptions, replay };
  } catch (err) {
    ctx.sessions.delete(sessionId);
    throw err;
  } finally {
    session.sink = undefined;
  }
}

export async function resumeSession(ctx: SessionOpenContext, sessionId: string): Promise<OpenedSession> {
  const res = await ctx.withAuth(() =>
    ctx.agent.request(methods.agent.session.resume, {
      sessionId,
      cwd: ctx.cwd,
      mcpServers: ctx.mcpServers,
      ...extraDirs(ctx),
    }),
  );
  if (!ctx.sessions.has(sessionId)) ctx.sessions.set(sessionId, new SessionState(sessionId, ctx.cwd));
  return { sessionId, origin: "resume", modes: res.modes, configOptions: res.configOptions, replay: [] };
}

/** load (if advertised) → resume (if advertised) → new. */
export async function ensureSession(ctx: SessionOpenContext, req: SessionRequest = {}): Promise<OpenedSession> {
  const id = req.resumeSessionId;
  const caps = ctx.init.agentCapabilities ?? {};
  if (id && caps.loadSession) {
    try {
      return await loadSession(ctx, id);
    } catch (err) {
      ctx.logger.warn(`session/load ${id} failed, trying the next way`, err);
    }
  }
  if (id && caps.sessionCapabilities?.resume) {
    try {
      return await resumeSession(ctx, id);
    } catch (err) {
      ctx.logger.warn(`session/resume ${id} failed, starting a new session`, err);
    }
  }
  return await newSession(ctx);
}

/** The most `session/list` pages one listing follows (a real agent pages 50–100 sessions at a time). */
export const MAX_LIST_PAGES = 200;

/**
 * Every page of `session/list` (cursors are opaque and never kept); [] when the agent does not list. An agent
 * cannot keep us paging: a cursor seen before, or more than `MAX_LIST_PAGES` pages, ends the listing (logged).
 */
export async function listAllSessions(
  agent: ClientContext,
  init: InitializeResponse,
  cwd?: string,
  logger?: Logger,
): Promise<AcpSessionInfo[]> {
  if (!init.agentCapabilities?.sessionCapabilities?.list) return [];
  const out: AcpSessionInfo[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages >= MAX_LIST_PAGES) {
      logger?.warn(`session/list: stopped after ${MAX_LIST_PAGES} pages (the agent kept returning a next cursor)`);
      break;
    }
    const page = await agent.request(methods.agent.session.list, {
      ...(cwd ? { cwd } : {}),
      ...(cursor ? { cursor } : {}),
    });
    out.push(...(page.sessions ?? []));
    cursor = page.nextCursor ?? undefined;
    if (!cursor) break;
    if (seen.has(cursor)) {
      logger?.warn("session/list: stopped at a cursor the agent had already returned (a paging loop)");
      break;
    }
    seen.add(cursor);
  }
  return out;
}
