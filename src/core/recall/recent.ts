/** `--recent`: the latest sessions in scope, each with its first real user message as the preview. */
import type { Db } from "../db/sqlite";

export interface RecentOptions {
  repo?: string;
  global?: boolean;
  limit?: number;
}

export interface RecentSession {
  id: string;
  source: string;
  path: string;
  repo: string | null;
  cwd: string | null;
  title: string | null;
  started_at: string | null;
  last_at: string | null;
  messages: number;
  preview: string | null;
}

export interface RecentResult {
  schema_version: number;
  status: "ok" | "no_match";
  scope: { kind: "repo" | "global"; repo: string | null };
  sessions: RecentSession[];
}

const iso = (t: number | null) => (t ? new Date(t).toISOString() : null);

/** A sessions row as selected: the result's fields before times are formatted and columns renamed. */
type Row = Omit<RecentSession, "started_at" | "last_at" | "messages" | "preview"> & {
  started_at: number | null;
  last_ts: number | null;
  msg_count: number;
  first_user: string | null;
};

/** The recent list when there is no index at all. */
export const recentNothing = (o: RecentOptions = {}): RecentResult => ({
  schema_version: 1,
  status: "no_match",
  scope: { kind: o.global ? "global" : "repo", repo: o.global ? null : (o.repo ?? null) },
  sessions: [],
});

export function recentSessions(db: Db, o: RecentOptions = {}): RecentResult {
  const where = o.global ? "" : "WHERE repo = :repo";
  const rows = db.all<Row>(
    `SELECT id, source, path, repo, cwd, title, started_at, last_ts, msg_count, first_user FROM sessions ${where}
     ${where ? "AND" : "WHERE"} msg_count > 0 ORDER BY coalesce(last_ts, started_at, 0) DESC, id LIMIT :limit`,
    { ...(o.global ? {} : { ":repo": o.repo ?? "" }), ":limit": o.limit ?? 10 },
  );
  const sessions = rows.map((r) => ({
    id: r.id,
    source: r.source,
    path: r.path,
    repo: r.repo,
    cwd: r.cwd,
    title: r.title,
    started_at: iso(r.started_at),
    last_at: iso(r.last_ts),
    messages: r.msg_count,
    preview: r.first_user,
  }));
  return {
    schema_version: 1,
    status: sessions.length ? "ok" : "no_match",
    scope: { kind: o.global ? "global" : "repo", repo: o.global ? null : (o.repo ?? null) },
    sessions,
  };
}
