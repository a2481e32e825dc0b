/**
 * One recall search: parse, collect hits per term in scope, keep the sessions that satisfy the query's mode,
 * rank them, then cut evidence windows within the budgets. Pure read; never throws on user input.
 */
import type { Db } from "../db/sqlite";
import { findTerm, type Scope, type SessionCount, type TermResult } from "./hits";
import { parseQuery } from "./query";
import { fitSessions } from "./budget";
import { rankSessions, type RankInfo, type SessionInfo } from "./rank";
import { headLines, linesCost, tailLines } from "./render";
import type { Mode, SearchResult, SessionResult } from "./result";
import { SessionFacts } from "./session-facts";
import { collectEvidence, type WindowOptions } from "./windows";

export type { Mode, SearchResult, SessionResult } from "./result";

export const RECALL_SCHEMA_VERSION = 1;

export interface SearchOptions extends Partial<WindowOptions> {
  /** Current repo root (from --cwd); undefined with global. */
  repo?: string;
  global?: boolean;
  allTerms?: boolean;
  limit?: number;
  /** Total characters of the markdown answer, headers and paths included; JSON carries the same evidence. */
  budgetChars?: number;
}

export const DEFAULTS = {
  limit: 3,
  budgetChars: 12_000,
  windowsPerSession: 2,
  before: 3,
  after: 5,
  messageChars: 1200,
  toolMessageChars: 600,
};

const iso = (t: number | null) => (t ? new Date(t).toISOString() : null);

/** Ranking facts for the matched sessions: all sessions (cached between searches) when many matched, else by id. */
function rankInfo(db: Db, sids: number[], repo: string | undefined, facts: SessionFacts): Map<number, RankInfo> {
  const out = new Map<number, RankInfo>();
  if (sids.length > 200) {
    const all = facts.all(db);
    for (const sid of sids) {
      const f = all.get(sid);
      if (f)
        out.set(sid, {
          sid,
          id: f.id,
          last_ts: f.last_ts,
          chars: f.chars,
          same_repo: repo !== undefined && f.repo === repo ? 1 : 0,
        });
    }
    return out;
  }
  const cols = "sid, id, last_ts, chars, coalesce(repo = :repo, 0) AS same_repo";
  for (const r of db.all<RankInfo>(`SELECT ${cols} FROM sessions WHERE sid IN (${sids.join(",")})`, {
    ":repo": repo ?? null,
  }))
    out.set(r.sid, r);
  return out;
}

function sessionRow(db: Db, sid: number): SessionInfo {
  return db.get<SessionInfo>(
    "SELECT sid, id, source, path, cwd, repo, started_at, last_ts, title, first_user, chars, msg_count FROM sessions WHERE sid = ?",
    sid,
  )!;
}

/** Sessions satisfying at least one group (every term of the group present somewhere in the session). */
function qualify(perTerm: TermResult[], groups: number[][]): Map<number, Map<number, SessionCount>> {
  const out = new Map<number, Map<number, SessionCount>>();
  const sids = new Set<number>();
  for (const t of perTerm) for (const sid of t.counts.keys()) sids.add(sid);
  for (const sid of sids) {
    if (!groups.some((g) => g.every((t) => perTerm[t].counts.has(sid)))) continue;
    const byTerm = new Map<number, SessionCount>();
    perTerm.forEach((t, i) => {
      const c = t.counts.get(sid);
      if (c) byTerm.set(i, c);
    });
    out.set(sid, byTerm);
  }
  return out;
}

/** The answer when there is no index at all: nothing matches (or the query was empty). */
export function searchNothing(query: string, opts: SearchOptions = {}): SearchResult {
  const empty = parseQuery(query).terms.length === 0;
  return {
    schema_version: RECALL_SCHEMA_VERSION,
    status: empty ? "empty_query" : "no_match",
    query,
    mode: "all",
    fallback: false,
    scope: { kind: opts.global ? "global" : "repo", repo: opts.repo ?? null },
    sessions: [],
    matched_sessions: 0,
    truncated: false,
    elapsed_ms: 0,
  };
}

export function search(
  db: Db,
  query: string,
  opts: SearchOptions = {},
  facts: SessionFacts = new SessionFacts(),
): SearchResult {
  const started = performance.now();
  const o = {
    ...DEFAULTS,
    ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)),
  } as typeof DEFAULTS & SearchOptions;
  const scope: Scope = opts.global ? {} : { repo: opts.repo };
  const parsed = parseQuery(query);
  const base = {
    schema_version: RECALL_SCHEMA_VERSION,
    query,
    scope: { kind: opts.global ? "global" : "repo", repo: opts.repo ?? null } as SearchResult["scope"],
    truncated: false,
  };
  const done = (r: Omit<SearchResult, keyof typeof base | "elapsed_ms">): SearchResult => ({
    ...base,
    ...r,
    elapsed_ms: Math.round((performance.now() - started) * 10) / 10,
  });
  if (parsed.terms.length === 0)
    return done({ status: "empty_query", mode: "all", fallback: false, sessions: [], matched_sessions: 0 });

  const offChain = facts.offChain(db);
  const perTerm = parsed.terms.map((t, i) => findTerm(db, t, i, scope, offChain));
  let mode: Mode = parsed.explicitOr ? "alternatives" : "all";
  let fallback = false;
  let matched = qualify(perTerm, parsed.groups);
  if (matched.size === 0 && !parsed.explicitOr && !opts.allTerms && parsed.terms.length > 1) {
    // strict first, then any term: a plain multi-word query falls back to OR when nothing holds them all
    mode = "any";
    fallback = true;
    matched = qualify(
      perTerm,
      parsed.terms.map((_, i) => [i]),
    );
  }
  if (matched.size === 0) return done({ status: "no_match", mode, fallback, sessions: [], matched_sessions: 0 });

  const termTexts = parsed.terms.map((t) => t.text);
  const ranked = rankSessions(matched, rankInfo(db, [...matched.keys()], opts.repo, facts), termTexts, o.limit);
  const needles = parsed.terms.map((t) => t.norm);
  const drafts = ranked.map((r) => {
    const s = sessionRow(db, r.session.sid);
    const hits = r.terms.flatMap((t) => perTerm[t].hitsFor(r.session.sid));
    const session = {
      id: s.id,
      source: s.source,
      path: s.path,
      cwd: s.cwd,
      repo: s.repo,
      title: s.title,
      intent: s.first_user,
      started_at: iso(s.started_at),
      last_at: iso(s.last_ts),
      why: r.why,
    };
    return { session, evidence: collectEvidence(db, r.session.sid, hits, needles, o) };
  });
  // the heading as it would read at its longest (every session shown, truncated) and the longest tail
  const worst = { ...base, status: "ok" as const, mode, fallback, truncated: true, matched_sessions: matched.size };
  const fixed =
    linesCost(headLines({ ...worst, sessions: drafts.map((d) => ({ ...d.session, windows: [] })) })) +
    linesCost(tailLines(999_999.9));
  const fit = fitSessions(drafts, needles, o.budgetChars - fixed);
  const sessions: SessionResult[] = fit.sessions;
  const truncated = fit.truncated;
  return { ...done({ status: "ok", mode, fallback, sessions, matched_sessions: matched.size }), truncated };
}
