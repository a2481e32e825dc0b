/**
 * The newest threads in a small JSON file beside the threads index (#36), so that the common `threads list`
 * (the latest 20, filtered or not) and the Sessions view's first paint answer without loading SQLite (WASM:
 * ~60 MB and most of a warm run). A derived cache of the index, never trusted over the files: it carries the
 * index's sync state (threads-sync.ts) and is used only while that state is still what the disk shows (the
 * folder's mtime, the change journal's inode and length, each thread locked for writing unchanged and its writer
 * alive) and was not taken racily; for the Sessions view's first paint also after, with the threads changed since
 * read again first (`recentCatalogRows`). A torn, corrupt or other-version file is ignored and written again after
 * the next sync of the index. No synchronous file call on the reading side: the extension host reads it too.
 */
import { open, readFile, stat } from "node:fs/promises";
import type { ThreadMetadata } from "../model/metadata";
import { liveWriterAsync } from "../platform/file-lock";
import { writeFileAtomic } from "../store/atomic-write";
import { changeJournalPath, recentThreadsPath } from "../store/change-journal";
import { isThreadId } from "../model/thread-id";
import type { ThreadStore } from "../store/thread-store";
import type { CatalogRow } from "./catalog-load";
import {
  LIST_COLUMNS,
  rowInWorkspace,
  toThread,
  type IndexedThread,
  type ThreadIndex,
  type ThreadQuery,
} from "./threads-index";
import { racyState, readState, type SyncState } from "./threads-sync";

// 2: each row's fold state and file cursor (the Sessions view's first paint)
const VERSION = 2;
/** How many of the newest threads (archived ones included) the file holds. */
export const RECENT_ROWS = 500;

interface RecentRow {
  thread: IndexedThread;
  /** The repository its worktree was made from (#25): a workspace's threads include it. */
  worktreeRepo: string | null;
  /** The thread as the index last read it: its fold state and where the read stopped (the thread catalog's row). */
  meta: ThreadMetadata;
  size: number;
  mtime: number;
  offset: number;
  head: string;
}

interface RecentFile {
  v: number;
  state: SyncState;
  /** Holds every thread of the index (no older row exists). */
  complete: boolean;
  rows: RecentRow[];
}

/** Why the file cannot answer: unusable (missing, corrupt, other version), stale, taken racily, too few rows. */
export type RecentRefusal = "unusable" | "stale" | "racy" | "short";

const validRow = (r: RecentRow) =>
  typeof r?.thread?.id === "string" &&
  typeof r.thread.lastActivity === "string" &&
  r.meta?.threadId === r.thread.id &&
  typeof r.size === "number" &&
  typeof r.mtime === "number" &&
  typeof r.offset === "number" &&
  typeof r.head === "string";

/** The file's content, or undefined when it is missing, torn, corrupt or of another version. */
async function readRecent(store: ThreadStore): Promise<RecentFile | undefined> {
  try {
    const f = JSON.parse(await readFile(recentThreadsPath(store.layout.threadIndexDb), "utf8")) as RecentFile;
    const s = f?.state;
    const ok =
      f.v === VERSION &&
      typeof f.complete === "boolean" &&
      Array.isArray(f.rows) &&
      typeof s?.dirMtime === "number" &&
      typeof s.journalIno === "number" &&
      typeof s.journalOffset === "number" &&
      Array.isArray(s.locked) &&
      f.rows.every(validRow);
    return ok ? f : undefined;
  } catch {
    return undefined;
  }
}

const statOf = (path: string) =>
  stat(path).then(
    (st) => ({ ino: st.ino, size: st.size, mtime: st.mtimeMs }),
    () => undefined,
  );

/** Whether the disk is still as `f` saw it: nothing created, removed, locked, journaled or appended since. */
async function current(f: RecentFile, store: ThreadStore): Promise<RecentRefusal | undefined> {
  const s = f.state;
  const [dir, journal] = await Promise.all([
    statOf(store.threadsDir),
    statOf(changeJournalPath(store.layout.threadIndexDb)),
  ]);
  if ((dir?.mtime ?? -1) !== s.dirMtime) return "stale";
  if ((journal?.ino ?? 0) !== s.journalIno || (journal?.size ?? 0) !== s.journalOffset) return "stale";
  if (racyState(s)) return "racy";
  // a thread being written now: unchanged since it was read, and its writer alive (else the index's path marks
  // it interrupted, as `markInterrupted` does)
  for (const id of s.locked) {
    const row = f.rows.find((r) => r.thread.id === id);
    const path = store.pathFor(id);
    const st = await statOf(path);
    if (!row || !st || st.size !== row.size || st.mtime !== row.mtime || !(await liveWriterAsync(path))) return "stale";
  }
  return undefined;
}

/** The file while the disk is as it saw it, or why not. */
async function loadRecent(store: ThreadStore): Promise<{ file: RecentFile } | { refused: RecentRefusal }> {
  const file = await readRecent(store);
  if (!file) return { refused: "unusable" };
  const stale = await current(file, store);
  return stale ? { refused: stale } : { file };
}

/** Whether a thread answers `q` (its limit aside): the file's twin of the index's SQL (threads-index.ts). */
function matchesRow(r: RecentRow, q: ThreadQuery): boolean {
  const t = r.thread;
  if (q.workspace && !rowInWorkspace(t, r.worktreeRepo, q.workspace)) return false;
  if (q.agent && t.agentId !== q.agent && t.agentName !== q.agent) return false;
  if (q.origin !== undefined && t.startedFrom !== q.origin) return false;
  if (q.status !== undefined && t.status !== q.status) return false;
  if (q.worktree && t.worktree === null) return false;
  if (q.before && !(t.lastActivity < q.before)) return false;
  const archived = q.archived ?? "exclude";
  return archived === "include" || (archived === "only") === t.archived;
}

/**
 * `q`'s answer from the file (most recent first), or why it has none. It answers when the disk is as the file
 * saw it and its rows settle the query: `limit` matches found, the rows reach back past `since`, or they are the
 * whole index.
 */
export async function listRecent(
  store: ThreadStore,
  q: ThreadQuery,
): Promise<{ threads: IndexedThread[] } | { refused: RecentRefusal }> {
  const r = await loadRecent(store);
  if (!("file" in r)) return r;
  const limit = q.limit ? Math.max(1, Math.floor(q.limit)) : Infinity;
  const out: IndexedThread[] = [];
  for (const row of r.file.rows) {
    // rows are newest first: past `since`, no later row can match
    if (q.since && row.thread.lastActivity < q.since) return { threads: out };
    if (!matchesRow(row, q)) continue;
    out.push(row.thread);
    if (out.length >= limit) return { threads: out };
  }
  return r.file.complete ? { threads: out } : { refused: "short" };
}

/** The thread catalog's first rows from the file (#36). */
export interface RecentCatalog {
  /** The newest threads, fold state and cursor as the index read them. */
  rows: CatalogRow[];
  /** The rows are every thread the index held. */
  complete: boolean;
  /**
   * Threads to read again before the rows are shown: none while the file is current; else (the disk moved on
   * since it was written, or it was taken racily) the ones the change journal names since, the ones locked then,
   * and the rows whose file changed size or mtime or went.
   */
  changed: string[];
}

/** A file the disk moved past answers a first paint only while at most this many threads are to be read again. */
const STALE_READS_MAX = 100;
/** ... and the change journal grew by at most this much since (else: too much changed, the index answers). */
const JOURNAL_TAIL_MAX = 64 << 10;

/**
 * The thread catalog's first rows: the Sessions view paints them before SQLite is loaded. When the disk moved on
 * since the file was written, with the threads that changed since (each row's file stat'ed, the journal's tail
 * read): the catalog reads those before it answers, so no row shows what is no longer true; a thread created
 * since by a writer that keeps no journal (an older version, another tool) next to journaled changes is missing
 * until the index's rows arrive. Undefined when the file is unusable, too much changed, or the folder changed
 * with no journal line since.
 */
export async function recentCatalogRows(store: ThreadStore): Promise<RecentCatalog | undefined> {
  const file = await readRecent(store);
  if (!file) return undefined;
  const changed = (await current(file, store)) ? await changedSince(file, store) : [];
  if (!changed) return undefined;
  const rows = file.rows.map(({ thread, meta, size, mtime, offset, head }) => ({
    id: thread.id,
    meta,
    size,
    mtime,
    offset,
    head,
  }));
  return { rows, complete: file.complete, changed };
}

/**
 * The threads `f`'s rows may show wrong or miss; undefined when there are too many to read on the host, or the
 * folder changed with no journal line since (a writer that keeps none: what it made is unknown here).
 */
async function changedSince(f: RecentFile, store: ThreadStore): Promise<string[] | undefined> {
  const [journaled, dir] = await Promise.all([
    journalSince(changeJournalPath(store.layout.threadIndexDb), f.state),
    statOf(store.threadsDir),
  ]);
  if (!journaled || (journaled.length === 0 && (dir?.mtime ?? -1) !== f.state.dirMtime)) return undefined;
  const ids = new Set([...f.state.locked, ...journaled]);
  const stats = await Promise.all(f.rows.map((r) => statOf(store.pathFor(r.thread.id))));
  f.rows.forEach((r, i) => {
    const st = stats[i];
    if (!st || st.size !== r.size || st.mtime !== r.mtime) ids.add(r.thread.id);
  });
  return ids.size <= STALE_READS_MAX ? [...ids] : undefined;
}

/**
 * The thread ids the change journal gained since `s` (complete lines; all of it when it was made since, as the
 * sync reads it); none when it was replaced or truncated since (the rows' own check still holds); undefined when
 * it grew past `JOURNAL_TAIL_MAX`.
 */
async function journalSince(path: string, s: SyncState): Promise<string[] | undefined> {
  const fh = await open(path, "r").catch(() => undefined);
  if (!fh) return [];
  try {
    const st = await fh.stat();
    const from = s.journalIno === 0 ? 0 : s.journalOffset;
    if ((s.journalIno !== 0 && st.ino !== s.journalIno) || st.size <= from) return [];
    if (st.size - from > JOURNAL_TAIL_MAX) return undefined;
    const buf = Buffer.alloc(st.size - from);
    const { bytesRead } = await fh.read(buf, 0, buf.length, from);
    const text = buf.subarray(0, buf.lastIndexOf(0x0a, bytesRead - 1) + 1).toString("utf8");
    return text.split("\n").filter(isThreadId);
  } finally {
    await fh.close();
  }
}

const newestFirst = (aTime: string, aId: string, bTime: string, bId: string) =>
  aTime !== bTime ? (aTime < bTime ? 1 : -1) : aId === bId ? 0 : aId < bId ? 1 : -1;

/**
 * Writes the file from the index as its last sync left it (the state and the newest rows read under one lock,
 * so they agree even when another process syncs meanwhile). Whole-file write, 0600.
 */
export function writeRecent(index: ThreadIndex, store: ThreadStore): void {
  const file = index.db.read((): RecentFile | undefined => {
    const state = readState(index.db);
    if (!state) return undefined;
    // the newest by the threads_recent index, with every row tied at the boundary; ordered as `list` orders
    // (an ORDER BY with the id too sorts the whole table: 150 ms at 10,000 threads)
    const rows = index.db
      .all<Record<string, string | number | null>>(
        `SELECT ${LIST_COLUMNS}, mtime, byte_offset, head, state, json_extract(state, '$.worktree.repo') AS worktree_repo
         FROM threads WHERE last_activity >= coalesce((SELECT last_activity FROM threads ORDER BY last_activity DESC
         LIMIT 1 OFFSET ${RECENT_ROWS}), '')`,
      )
      .sort((a, b) => newestFirst(String(a.last_activity), String(a.id), String(b.last_activity), String(b.id)));
    return {
      v: VERSION,
      state,
      complete: rows.length <= RECENT_ROWS,
      rows: rows.slice(0, RECENT_ROWS).map((r) => ({
        thread: toThread(r),
        worktreeRepo: r.worktree_repo === null ? null : String(r.worktree_repo),
        meta: JSON.parse(String(r.state)) as ThreadMetadata,
        size: Number(r.size),
        mtime: Number(r.mtime),
        offset: Number(r.byte_offset),
        head: String(r.head),
      })),
    };
  });
  if (file) writeFileAtomic(recentThreadsPath(store.layout.threadIndexDb), JSON.stringify(file));
}
