/**
 * Finds the messages that contain each term, within a scope: FTS5 over the segmented text when the term can use
 * the index (confirming phrase candidates against the normalized body), a scan of the scope otherwise.
 */
import type { Db } from "../db/sqlite";
import type { Term } from "./query";
import { normalize } from "./text";

export interface Hit {
  mid: number;
  sid: number;
  seq: number;
  role: string;
  kind: string;
  term: number;
}

export interface Scope {
  /** Repo root to restrict to; undefined = global. */
  repo?: string;
}

const scopeSql = (scope: Scope) => (scope.repo !== undefined ? " AND m.sid IN (SELECT sid FROM sessions WHERE repo = :repo)" : "");
const scopeParams = (scope: Scope): Record<string, string> => (scope.repo !== undefined ? { ":repo": scope.repo } : {});

interface Row {
  mid: number;
  sid: number;
  seq: number;
  role: string;
  kind: string;
  body?: string;
}

export function termHits(db: Db, term: Term, termIndex: number, scope: Scope): Hit[] {
  let rows: Row[];
  if (term.fts !== undefined) {
    const cols = term.confirm ? "m.mid, m.sid, m.seq, m.role, m.kind, m.body" : "m.mid, m.sid, m.seq, m.role, m.kind";
    rows = db.all<Row>(
      `SELECT ${cols} FROM msg_fts JOIN messages m ON m.mid = msg_fts.rowid WHERE msg_fts MATCH :q${scopeSql(scope)}`,
      { ":q": term.fts, ...scopeParams(scope) },
    );
  } else {
    // no index path for this needle (a single CJK char, punctuation): scan the scope
    rows = db.all<Row>(`SELECT m.mid, m.sid, m.seq, m.role, m.kind, m.body FROM messages m WHERE 1${scopeSql(scope)}`, scopeParams(scope));
  }
  const out: Hit[] = [];
  for (const r of rows) {
    if (r.body !== undefined && !normalize(r.body).includes(term.norm)) continue;
    out.push({ mid: r.mid, sid: r.sid, seq: r.seq, role: r.role, kind: r.kind, term: termIndex });
  }
  return out;
}

/** Where the first needle occurs in `body` (an index into body), or -1. Case-insensitive, NFKC-tolerant. */
export function hitOffset(body: string, needles: string[]): number {
  const lower = body.toLowerCase();
  let best = -1;
  for (const n of needles) {
    let i = lower.indexOf(n);
    if (i < 0) {
      // NFKC changed lengths (full-width text): locate in the normalized copy and map back proportionally
      const norm = normalize(body);
      const j = norm.indexOf(n);
      if (j >= 0) i = Math.floor((j * body.length) / Math.max(1, norm.length));
    }
    if (i >= 0 && (best < 0 || i < best)) best = i;
  }
  return best;
}
