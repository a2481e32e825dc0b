/**
 * What ranking needs of every session (id, recency, size, repo), kept between searches of one long-lived
 * connection (the extension's recall worker, the warm recall process) while the index has not changed: a common
 * word matches nearly every session, and reading 12,500 rows per search is a third of such a query at 1M messages.
 * A commit by another connection changes `PRAGMA data_version`; one by this connection, `total_changes()`.
 */
import type { Db } from "../db/sqlite";

export interface SessionFact {
  sid: number;
  id: string;
  last_ts: number | null;
  chars: number;
  repo: string | null;
}

export class SessionFacts {
  #key = "";
  #rows: Map<number, SessionFact> | undefined;
  #offChain: Set<number> | undefined;

  /** Drops the cached facts when the index changed since they were read. */
  #check(db: Db): void {
    const v = db.get<{ v: number; n: number }>(
      "SELECT (SELECT data_version FROM pragma_data_version) AS v, total_changes() AS n",
    );
    const key = `${v?.v}:${v?.n}`;
    if (key === this.#key) return;
    this.#key = key;
    this.#rows = undefined;
    this.#offChain = undefined;
  }

  all(db: Db): Map<number, SessionFact> {
    this.#check(db);
    this.#rows ??= new Map(
      db.all<SessionFact>("SELECT sid, id, last_ts, chars, repo FROM sessions").map((r) => [r.sid, r]),
    );
    return this.#rows;
  }

  /** Ids of the messages flagged off the live chain (chain.ts): few, read through a partial index. */
  offChain(db: Db): Set<number> {
    this.#check(db);
    this.#offChain ??= new Set(
      db.all<{ mid: number }>("SELECT mid FROM messages WHERE off_chain = 1").map((r) => r.mid),
    );
    return this.#offChain;
  }
}
