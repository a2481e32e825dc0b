/**
 * The newest threads in a small JSON file beside the threads index (#36), so that the common `threads list`
 * (the latest 20, filtered or not) answers without loading SQLite (WASM: ~60 MB and most of a warm run). A
 * derived cache of the index, never trusted over the files: it carries the index's sync state (threads-sync.ts)
 * and is used only while that state is still what the disk shows (the folder's mtime, the change journal's inode
 * and length, each thread locked for writing unchanged and its writer alive) and was not taken racily. A torn,
 * corrupt or newer-version file is ignored and written again after the next sync of the index.
 */
import { readFileSync, statSync } from "node:fs";
import { liveWriter } from "../platform/file-lock";
import { writeFileAtomic } from "../store/atomic-write";
import { changeJournalPath, recentThreadsPath } from "../store/change-journal";
import type { ThreadStore } from "../store/thread-store";
import {
  LIST_COLUMNS,
  rowInWorkspace,
  toThread,
  type IndexedThread,
  type ThreadIndex,
  type ThreadQuery,
} from "./threads-index";
import { racyState, readState, type SyncState } from "./threads-sync";

const VERSION = 1;
/** How many of the newest threads (archived ones included) the file holds. */
export const RECENT_ROWS = 500;

interface RecentRow {
  thread: IndexedThread;
  /** The repository its worktree was made from (#25): a workspace's threads include it. */
  worktreeRepo: string | null;
  /** The file as the index last read it (checked for threads locked for writing). */
  size: number;
  mtime: number;
}

interface RecentFile {
  v: number;
  state: SyncState;
  /** Holds every thread of the index (no older row exists). */
  complete: boolean;
  rows: RecentRow[];
}

/** Why the file cannot answer: unusable (missing, corrupt, newer), stale, taken racily, or not enough rows. */
export type RecentRefusal = "unusable" | "stale" | "racy" | "short";

/** The file's content, or undefined when it is missing, torn, corrupt or of another version. */
export function readRecent(store: ThreadStore): RecentFile | undefined {
  try {
    const f = JSON.parse(readFileSync(recentThreadsPath(store.layout.threadIndexDb), "utf8")) as RecentFile;
    const s = f?.state;
    const ok =
      f.v === VERSION &&
      typeof f.complete === "boolean" &&
      Array.isArray(f.rows) &&
      typeof s?.dirMtime === "number" &&
      typeof s.journalIno === "number" &&
      typeof s.journalOffset === "number" &&
      Array.isArray(s.locked) &&
      f.rows.every((r) => typeof r?.thread?.id === "string" && typeof r.thread.lastActivity === "string");
    return ok ? f : undefined;
  } catch {
    return undefined;
  }
}

const statOf = (path: string) => {
  try {
    const st = statSync(path);
    return { ino: st.ino, size: st.size, mtime: st.mtimeMs };
  } catch {
    return undefined;
  }
};

/** Whether the disk is still as `f` saw it: nothing created, removed, locked, journaled or appended since. */
function current(f: RecentFile, store: ThreadStore): RecentRefusal | undefined {
  const s = f.state;
  if ((statOf(store.threadsDir)?.mtime ?? -1) !== s.dirMtime) return "stale";
  const journal = statOf(changeJournalPath(store.layout.threadIndexDb));
  if ((journal?.ino ?? 0) !== s.journalIno || (journal?.size ?? 0) !== s.journalOffset) return "stale";
  if (racyState(s)) return "racy";
  // a thread being written now: unchanged since it was read, and its writer alive (else the slow path marks it
  // interrupted, as `markInterrupted` does)
  for (const id of s.locked) {
    const row = f.rows.find((r) => r.thread.id === id);
    const path = store.pathFor(id);
    const st = statOf(path);
    if (!row || !st || st.size !== row.size || st.mtime !== row.mtime || !liveWriter(path)) return "stale";
  }
  return undefined;
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
export function listRecent(
  store: ThreadStore,
  q: ThreadQuery,
): { threads: IndexedThread[] } | { refused: RecentRefusal } {
  const f = readRecent(store);
  if (!f) return { refused: "unusable" };
  const stale = current(f, store);
  if (stale) return { refused: stale };
  const limit = q.limit ? Math.max(1, Math.floor(q.limit)) : Infinity;
  const out: IndexedThread[] = [];
  for (const r of f.rows) {
    // rows are newest first: past `since`, no later row can match
    if (q.since && r.thread.lastActivity < q.since) return { threads: out };
    if (!matchesRow(r, q)) continue;
    out.push(r.thread);
    if (out.length >= limit) return { threads: out };
  }
  return f.complete ? { threads: out } : { refused: "short" };
}

/**
 * Writes the file from the index as its last sync left it (the state and the newest rows read in one transaction,
 * so they agree even when another process syncs meanwhile). Whole-file write, 0600.
 */
export function writeRecent(index: ThreadIndex, store: ThreadStore): void {
  const file = index.db.transaction((): RecentFile | undefined => {
    const state = readState(index.db);
    if (!state) return undefined;
    const rows = index.db.all<Record<string, string | number | null>>(
      `SELECT ${LIST_COLUMNS}, mtime, json_extract(state, '$.worktree.repo') AS worktree_repo FROM threads
       ORDER BY last_activity DESC, id DESC LIMIT ${RECENT_ROWS + 1}`,
    );
    return {
      v: VERSION,
      state,
      complete: rows.length <= RECENT_ROWS,
      rows: rows.slice(0, RECENT_ROWS).map((r) => ({
        thread: toThread(r),
        worktreeRepo: r.worktree_repo === null ? null : String(r.worktree_repo),
        size: Number(r.size),
        mtime: Number(r.mtime),
      })),
    };
  });
  if (file) writeFileAtomic(recentThreadsPath(store.layout.threadIndexDb), JSON.stringify(file));
}
