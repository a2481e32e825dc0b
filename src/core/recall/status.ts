/** `acp-threads status`: the index file, counts per source, last sync and parse problems. */
import { statSync } from "node:fs";
import type { Db } from "../db/sqlite";

export interface RecallStatus {
  database: string;
  size_bytes: number;
  sources: {
    source: string;
    files: number;
    sessions: number;
    messages: number;
    bad_lines: number;
    unknown_records: number;
    last_sync: string | null;
  }[];
  totals: { files: number; sessions: number; messages: number };
}

/** The status of an index that was never created. */
export const emptyStatus = (path: string): RecallStatus => ({
  database: path,
  size_bytes: 0,
  sources: [],
  totals: { files: 0, sessions: 0, messages: 0 },
});

export function readStatus(db: Db, path: string): RecallStatus {
  let size = 0;
  try {
    size = statSync(path).size;
  } catch {
    // not written yet
  }
  const files = db.all<{ source: string; files: number; bad: number; unknown: number }>(
    "SELECT source, count(*) AS files, sum(bad_lines) AS bad, sum(unknown) AS unknown FROM files GROUP BY source",
  );
  const sessions = db.all<{ source: string; sessions: number; messages: number }>(
    "SELECT source, count(*) AS sessions, sum(msg_count) AS messages FROM sessions GROUP BY source",
  );
  const syncs = new Map(
    db
      .all<{ key: string; value: string }>("SELECT key, value FROM meta WHERE key LIKE 'last_sync:%'")
      .map((r) => [r.key.slice(10), r.value]),
  );
  const names = [...new Set([...files.map((f) => f.source), ...sessions.map((s) => s.source), ...syncs.keys()])].sort();
  const rows = names.map((source) => {
    const f = files.find((x) => x.source === source);
    const s = sessions.find((x) => x.source === source);
    const sync = syncs.get(source);
    return {
      source,
      files: f?.files ?? 0,
      sessions: s?.sessions ?? 0,
      messages: s?.messages ?? 0,
      bad_lines: f?.bad ?? 0,
      unknown_records: f?.unknown ?? 0,
      last_sync: sync ? new Date(Number(sync)).toISOString() : null,
    };
  });
  const sum = (k: "files" | "sessions" | "messages") => rows.reduce((a, r) => a + r[k], 0);
  return {
    database: path,
    size_bytes: size,
    sources: rows,
    totals: { files: sum("files"), sessions: sum("sessions"), messages: sum("messages") },
  };
}
