/**
 * The derived usage index (`<home>/index/usage.sqlite`): every ledger entry of every thread (see ledger.ts),
 * kept up to date incrementally from the thread JSONL files (only appended tails are read; the fold state is
 * stored per file). Like every index here it is a cache: deleted or corrupt, it is rebuilt from the files.
 */
import { openDerivedDatabase, openDerivedDatabaseAsync, type Db } from "../db/sqlite";
import { syncTails, type TailSyncStats } from "../index/jsonl-tail";
import type { ThreadStore } from "../store/thread-store";
import { LedgerFolder, type LedgerEntry, type LedgerState } from "./ledger";

const SCHEMA_VERSION = 1;

function createSchema(db: Db): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS files (
      thread_id TEXT PRIMARY KEY, path TEXT NOT NULL, size INTEGER NOT NULL, mtime REAL NOT NULL,
      byte_offset INTEGER NOT NULL, head TEXT NOT NULL, state TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS entries (
      thread_id TEXT NOT NULL, at INTEGER NOT NULL, agent_id TEXT NOT NULL, agent_name TEXT NOT NULL, model TEXT,
      kind TEXT NOT NULL, turns INTEGER NOT NULL, input INTEGER NOT NULL, output INTEGER NOT NULL, thought INTEGER NOT NULL,
      cache_read INTEGER NOT NULL, cache_write INTEGER NOT NULL, total INTEGER NOT NULL, cost REAL, currency TEXT,
      ctx_used INTEGER, ctx_size INTEGER
    );
    CREATE INDEX IF NOT EXISTS entries_at ON entries(at);
    CREATE INDEX IF NOT EXISTS entries_thread ON entries(thread_id, at);
  `);
}

export interface UsageSyncStats extends TailSyncStats {
  /** Ledger entries added. */
  entries: number;
}

interface FileRow {
  thread_id: string;
  path: string;
  size: number;
  mtime: number;
  byte_offset: number;
  head: string;
  state: string;
}

export class UsageIndex {
  constructor(
    readonly db: Db,
    readonly created: boolean,
  ) {}

  close(): void {
    this.db.close();
  }

  /** Brings the index up to date with the store's thread files. */
  sync(store: ThreadStore): UsageSyncStats {
    const ids = store.ids();
    return this.db.transaction(() => {
      const known = new Map(this.db.all<FileRow>("SELECT * FROM files").map((r) => [r.thread_id, r]));
      const insert = this.db.prepare(
        `INSERT INTO entries VALUES (:thread_id, :at, :agent_id, :agent_name, :model, :kind, :turns, :input, :output,
        :thought, :cache_read, :cache_write, :total, :cost, :currency, :ctx_used, :ctx_size)`,
      );
      const upsert = this.db.prepare(
        "INSERT OR REPLACE INTO files VALUES (:thread_id, :path, :size, :mtime, :byte_offset, :head, :state)",
      );
      let entries = 0;
      try {
        const stats = syncTails(ids, (id) => store.pathFor(id), known, {
          read: (id, path, read, prev) => {
            if (!prev) this.db.run("DELETE FROM entries WHERE thread_id = ?", [id]);
            const folder = new LedgerFolder(prev ? (JSON.parse(prev.state) as LedgerState) : undefined);
            for (const r of read.records)
              for (const e of folder.add(r)) {
                insert.run(entryParams(e));
                entries++;
              }
            const c = read.cursor;
            upsert.run({
              ":thread_id": id,
              ":path": path,
              ":size": c.size,
              ":mtime": c.mtime,
              ":byte_offset": c.offset,
              ":head": c.head,
              ":state": JSON.stringify(folder.state ?? null),
            });
          },
          forget: (id) => this.#forget(id),
        });
        return { ...stats, entries };
      } finally {
        insert.finalize();
        upsert.finalize();
      }
    });
  }

  #forget(id: string): void {
    this.db.run("DELETE FROM entries WHERE thread_id = ?", [id]);
    this.db.run("DELETE FROM files WHERE thread_id = ?", [id]);
  }
}

function entryParams(e: LedgerEntry): Record<string, string | number | null> {
  return {
    ":thread_id": e.threadId,
    ":at": e.at,
    ":agent_id": e.agentId,
    ":agent_name": e.agentName,
    ":model": e.model,
    ":kind": e.kind,
    ":turns": e.turns,
    ":input": e.inputTokens,
    ":output": e.outputTokens,
    ":thought": e.thoughtTokens,
    ":cache_read": e.cachedReadTokens,
    ":cache_write": e.cachedWriteTokens,
    ":total": e.totalTokens,
    ":cost": e.cost,
    ":currency": e.currency,
    ":ctx_used": e.contextUsed,
    ":ctx_size": e.contextSize,
  };
}

function synced(open: { db: Db; created: boolean }, store: ThreadStore): { index: UsageIndex; stats: UsageSyncStats } {
  const index = new UsageIndex(open.db, open.created);
  try {
    return { index, stats: index.sync(store) };
  } catch (err) {
    index.close();
    throw err;
  }
}

/** Opens (rebuilding when lost, corrupt or of another schema) and syncs; the caller closes it. */
export function openUsageIndex(store: ThreadStore): { index: UsageIndex; stats: UsageSyncStats } {
  return synced(openDerivedDatabase(store.layout.usageDb, SCHEMA_VERSION, createSchema), store);
}

/** `openUsageIndex` without blocking the caller while another process holds the database (the extension host). */
export async function openUsageIndexAsync(store: ThreadStore): Promise<{ index: UsageIndex; stats: UsageSyncStats }> {
  return synced(await openDerivedDatabaseAsync(store.layout.usageDb, SCHEMA_VERSION, createSchema), store);
}
