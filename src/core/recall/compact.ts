/**
 * Compaction of the full-text index after a bulk import. FTS5 flushes a segment per import batch and merges them
 * four at a time as they pile up (automerge), so a large import leaves about ten segments behind: a term lookup
 * then reads a leaf page in each of them, and a term's rowids are merged from all of them, row by row. Merging them
 * into one (FTS5's 'merge' command with a negative page count takes every segment, whatever its level) rewrites the
 * whole index, so it follows only an import that added a good share of it (a first import of history, not a tail
 * sync, which automerge keeps tidy). It goes in steps of STEP_PAGES pages, one short transaction each, so other
 * connections search in between (giveReadersTheirTurn); a step is complete on its own, so stopping between two
 * steps loses nothing. Figures (`npm run bench:recall`): 100k messages, 8–9 segments → 1 in about 70 steps and
 * 1.8–2.7 s, warm query p50 a quarter to a third lower; 1M messages, 11 → 1 in 615 steps and 41 s.
 */
import type { Db } from "../db/sqlite";
import { giveReadersTheirTurn } from "./reader-turns";

/** An import that leaves more segments than this and added at least BULK_SHARE of the messages is compacted. */
export const MAX_SEGMENTS = 2;
export const BULK_SHARE = 0.25;
/** Pages merged per transaction: a step takes ~40 ms (the longest seen: 330 ms), a search's longest wait. */
const STEP_PAGES = 500;

export interface CompactSummary {
  segments_before: number;
  segments_after: number;
  steps: number;
  elapsed_ms: number;
  /** Set when it stopped before the end (cancelled, or an import started): the next import's compaction goes on. */
  stopped?: boolean;
}

/** The number of segments of the full-text index: one seek per segment in its page index (segid, term). */
export function ftsSegments(db: Db): number {
  const next = db.prepare("SELECT segid FROM msg_fts_idx WHERE segid > ? ORDER BY segid LIMIT 1");
  try {
    let n = 0;
    for (let at = -1; ; n++) {
      const row = next.get<{ segid: number }>(at);
      if (!row) return n;
      at = row.segid;
    }
  } finally {
    next.finalize();
  }
}

/** True when an import that added `added` messages was a bulk one, worth a compaction. */
export function bulkImport(db: Db, added: number): boolean {
  if (added <= 0) return false;
  const total = db.read(() => db.get<{ n: number | null }>("SELECT sum(msg_count) AS n FROM sessions")?.n ?? 0);
  return added >= total * BULK_SHARE;
}

/** Merges the index into one segment when it has more than `maxSegments`; `stop` is asked before every step. */
export function compactIndex(db: Db, stop: () => boolean = () => false, maxSegments = MAX_SEGMENTS): CompactSummary {
  const started = performance.now();
  const before = db.read(() => ftsSegments(db));
  const summary = (steps: number, stopped: boolean): CompactSummary => ({
    segments_before: before,
    segments_after: steps > 0 ? db.read(() => ftsSegments(db)) : before,
    steps,
    elapsed_ms: Math.round(performance.now() - started),
    ...(stopped ? { stopped } : {}),
  });
  if (before <= maxSegments) return summary(0, false);
  const changes = () => db.get<{ n: number }>("SELECT total_changes() AS n")!.n;
  for (let steps = 0; ;) {
    if (stop()) return summary(steps, true);
    const was = changes();
    db.transaction(() => db.run("INSERT INTO msg_fts(msg_fts, rank) VALUES ('merge', ?)", -STEP_PAGES));
    steps++;
    giveReadersTheirTurn(db.path);
    // a step that changed (almost) nothing found nothing left to merge (FTS5's documented test)
    if (changes() - was < 2) return summary(steps, false);
  }
}
