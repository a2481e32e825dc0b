/**
 * Keeping the threads index current without stat-ing every thread file (#36). What the index last saw of the
 * threads folder is kept in its `sync_state` table: the folder's mtime, how far it read the change journal
 * (src/core/store/change-journal.ts) and which threads were locked for writing. A sync then reads:
 *
 * - "journal": the folder is unchanged (no thread created, removed, locked or unlocked since): only the threads
 *   the journal names since the last sync and the ones still locked (being written now) are read.
 * - "listing": the folder changed and the journal grew (writers of this version say what they touched): one
 *   folder listing finds new, removed and locked threads; those and the journal's are read.
 * - "full": no state yet (a new or rebuilt index: an upgrade), the journal was replaced or truncated, the folder
 *   changed without a journal line (an older version or another tool wrote), or asked for: every file is
 *   stat'ed and read as far as it changed, as before.
 *
 * Every path reads a thread as far as it changed since the index last read it (jsonl-tail.ts).
 */
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync, unlinkSync } from "node:fs";
import type { Db } from "../db/sqlite";
import { lockPathFor } from "../platform/file-lock";
import { MetadataFolder, startedFromOf, type ThreadMetadata } from "../model/metadata";
import { redactSecrets } from "../redact";
import { changeJournalPath } from "../store/change-journal";
import { isThreadId } from "../model/thread-id";
import type { ThreadStore } from "../store/thread-store";
import { syncTails, type StoredCursor, type TailSyncStats } from "./jsonl-tail";

export type SyncPath = "journal" | "listing" | "full";
export type SyncStats = TailSyncStats & { path: SyncPath };

/** A journal past this size is dropped after a sync; the next sync is then a full one. */
export const JOURNAL_MAX_BYTES = 4 << 20;

export interface SyncState {
  dirMtime: number;
  /**
   * When the sync stat'ed the folder (Date.now() just before). A folder changed again within its timestamps'
   * granularity keeps its mtime: a state taken that close to `dirMtime` proves nothing about later changes
   * (`racyState`). Absent in states written before it was kept.
   */
  checkedAt?: number;
  journalIno: number;
  journalOffset: number;
  locked: string[];
}

/**
 * Whether a folder change right after `s` was taken could have left `dirMtime` as it was: the state was taken
 * within the timestamps' granularity of the folder's last change (whole seconds on some filesystems, a clock
 * tick on the others), or when it was taken is unknown.
 */
export function racyState(s: SyncState): boolean {
  const granularity = s.dirMtime % 1000 === 0 ? 2000 : 100;
  return s.checkedAt === undefined || s.checkedAt - s.dirMtime < granularity;
}

interface Known extends StoredCursor {
  state: string;
}

export function createSyncStateSchema(db: Db): void {
  db.exec("CREATE TABLE IF NOT EXISTS sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
}

export function readState(db: Db): SyncState | undefined {
  const row = db.get<{ value: string }>("SELECT value FROM sync_state WHERE key = 'folder'");
  try {
    return row ? (JSON.parse(row.value) as SyncState) : undefined;
  } catch {
    return undefined; // unreadable: a full sync writes it again
  }
}

function writeState(db: Db, s: SyncState): void {
  db.run("INSERT OR REPLACE INTO sync_state (key, value) VALUES ('folder', ?)", [JSON.stringify(s)]);
}

const mtimeOf = (path: string): number => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
};

/** The journal's new thread ids since `from` (complete lines only), its inode and where the read stopped. */
function readJournal(path: string, from: number): { ino: number; end: number; size: number; ids: Set<string> } {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return { ino: 0, end: 0, size: 0, ids: new Set() };
  }
  try {
    const st = fstatSync(fd);
    const ids = new Set<string>();
    if (st.size <= from) return { ino: st.ino, end: from, size: st.size, ids };
    const buf = Buffer.alloc(st.size - from);
    const n = readSync(fd, buf, 0, buf.length, from);
    const text = buf.subarray(0, buf.lastIndexOf(0x0a, n - 1) + 1).toString("utf8");
    for (const line of text.split("\n")) if (isThreadId(line)) ids.add(line);
    return { ino: st.ino, end: from + Buffer.byteLength(text), size: st.size, ids };
  } finally {
    closeSync(fd);
  }
}

/** The threads folder's thread ids and the ones locked for writing (one listing). */
function listFolder(dir: string): { ids: Set<string>; locked: Set<string> } {
  const ids = new Set<string>();
  const locked = new Set<string>();
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    // no folder yet: no threads
  }
  for (const n of names) {
    if (n.endsWith(".jsonl") && isThreadId(n.slice(0, -6))) ids.add(n.slice(0, -6));
    else if (n.endsWith(".jsonl.lock") && isThreadId(n.slice(0, -11))) locked.add(n.slice(0, -11));
  }
  return { ids, locked };
}

/** Brings the index up to date with the store's files (`full`: stat every file); returns what it did. */
export function syncIndexDb(db: Db, store: ThreadStore, opts: { full?: boolean } = {}): SyncStats {
  const journalPath = changeJournalPath(store.layout.threadIndexDb);
  return db.transaction(() => {
    const prev = readState(db);
    const checkedAt = Date.now();
    const dirMtime = mtimeOf(store.threadsDir);
    const same = !!prev && !opts.full;
    const journal = readJournal(journalPath, same && prev.journalIno !== 0 ? prev.journalOffset : 0);
    const journalOk =
      same && (prev.journalIno === journal.ino || prev.journalIno === 0) && journal.size >= prev.journalOffset;
    let path: SyncPath = "full";
    let ids: string[];
    let known: Map<string, Known>;
    let locked = new Set(prev?.locked ?? []);
    const gone: string[] = [];
    if (journalOk && dirMtime === prev.dirMtime) {
      path = "journal";
      ids = [...new Set([...journal.ids, ...locked])];
      known = knownRows(db, ids);
    } else if (journalOk && journal.ids.size) {
      path = "listing";
      const folder = listFolder(store.threadsDir);
      locked = folder.locked;
      const indexed = new Set(db.all<{ id: string }>("SELECT id FROM threads").map((r) => r.id));
      const fresh = [...folder.ids].filter((id) => !indexed.has(id));
      for (const id of indexed) if (!folder.ids.has(id)) gone.push(id);
      // the threads locked at the last sync are read once more: one whose lock went since may have grown
      ids = [...new Set([...journal.ids, ...locked, ...prev.locked, ...fresh])].filter((id) => folder.ids.has(id));
      known = knownRows(db, ids);
    } else {
      const folder = listFolder(store.threadsDir);
      locked = folder.locked;
      ids = [...folder.ids];
      known = knownRows(db);
    }
    const stats = { ...applyReads(db, store, ids, known), path };
    for (const id of gone) db.run("DELETE FROM threads WHERE id = ?", [id]);
    stats.removed += gone.length;
    // a long journal is dropped once read: the next sync finds a new inode and stats every file once
    const drop = journal.end > JOURNAL_MAX_BYTES;
    if (drop) unlinkQuietly(journalPath);
    const next: SyncState = {
      dirMtime,
      // a quiet folder keeps the time it was first seen so (nothing to write); any other path looked again now
      checkedAt: path === "journal" ? prev!.checkedAt : checkedAt,
      journalIno: drop ? -1 : journal.ino,
      journalOffset: drop ? 0 : journal.end,
      locked: [...locked].filter((id) => lockHeld(store, id)),
    };
    // a quiet folder writes nothing (a write is an fsync: most of a warm `threads list`)
    if (JSON.stringify(next) !== JSON.stringify(prev)) writeState(db, next);
    return stats;
  });
}

/** A lock listed a moment ago may be gone; a thread whose lock is gone is read from the journal's close line. */
const lockHeld = (store: ThreadStore, id: string): boolean => mtimeOf(lockPathFor(store.pathFor(id))) !== -1;

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** The index's cursors: of `ids`, or of every thread. */
function knownRows(db: Db, ids?: readonly string[]): Map<string, Known> {
  const sql = "SELECT id, path, size, mtime, byte_offset, head, state FROM threads";
  const rows: (Known & { id: string })[] = [];
  if (!ids) rows.push(...db.all<Known & { id: string }>(sql));
  else {
    const stmt = db.prepare(`${sql} WHERE id = ?`);
    try {
      for (const id of ids) {
        const r = stmt.get<Known & { id: string }>([id]);
        if (r) rows.push(r);
      }
    } finally {
      stmt.finalize();
    }
  }
  return new Map(rows.map((r) => [r.id, r]));
}

/** Reads `ids` as far as they changed since `known` and writes their rows; `known` ids not in `ids` are dropped. */
function applyReads(db: Db, store: ThreadStore, ids: string[], known: Map<string, Known>): TailSyncStats {
  const upsert = db.prepare(`INSERT OR REPLACE INTO threads VALUES (:id, :title, :agent_id, :agent_name, :mode, :cwd,
    :repo_root, :status, :turns, :messages, :created_at, :last_activity, :path, :size, :mtime, :byte_offset, :head,
    :state, :started_from, :archived, :worktree)`);
  try {
    return syncTails(ids, (id) => store.pathFor(id), known, {
      read(id, path, read, prev) {
        const folder = new MetadataFolder();
        if (prev) folder.metadata = JSON.parse(prev.state) as ThreadMetadata;
        for (const r of read.records) folder.add(r);
        const m = folder.metadata;
        if (!m) throw new Error("no thread_start record");
        const { cursor } = read;
        upsert.run({
          ":id": id,
          ":title": m.title === null ? null : redactSecrets(m.title),
          ":agent_id": m.agent.id,
          ":agent_name": m.agent.name,
          ":mode": m.mode,
          ":cwd": m.cwd,
          ":repo_root": m.repoRoot,
          ":status": m.status,
          ":turns": m.counters.turns,
          ":messages": m.counters.userMessages + m.counters.agentMessages,
          ":created_at": m.createdAt,
          ":last_activity": m.lastActivity,
          ":path": path,
          ":size": cursor.size,
          ":mtime": cursor.mtime,
          ":byte_offset": cursor.offset,
          ":head": cursor.head,
          ":state": JSON.stringify(m),
          ":started_from": startedFromOf(m),
          ":archived": m.archived ? 1 : 0,
          ":worktree": m.worktree?.path ?? null,
        });
      },
      forget: (id) => db.run("DELETE FROM threads WHERE id = ?", [id]),
    });
  } finally {
    upsert.finalize();
  }
}
