/**
 * Derived index of thread metadata for the sessions tree and `threads list`. It is a cache: rebuilt
 * incrementally from the JSONL files by remembering each file's size, mtime and the byte offset read so far
 * (only the tail is re-read; a shrunk or replaced file is re-read whole). A lost or corrupt database is
 * recreated, never trusted over the files. Syncs run in one write transaction, so two processes syncing at
 * once serialize and both end with the same, correct rows.
 */
import { openDerivedDatabase, openDerivedDatabaseAsync, type Db } from "../db/sqlite";
import { HOST_PLATFORM, isWindows, type Platform } from "../platform/host";
import type { ThreadMetadata } from "../model/metadata";
import type { ThreadStore } from "../store/thread-store";
import type { IndexedThread, ThreadQuery } from "../model/thread-list";
import { createSyncStateSchema, syncIndexDb, type SyncStats } from "./threads-sync";

export type { SyncStats } from "./threads-sync";
// the listing's plain types and its grouping by day, where the front ends import them (the engine's API)
export type { IndexedThread, ThreadQuery } from "../model/thread-list";
export { groupByDay } from "./thread-days";

// 2: who started a thread, archived, its worktree (#36), and what the last sync saw of the folder
const SCHEMA_VERSION = 2;

// IF NOT EXISTS: two processes creating a fresh index at once both run this (serialized); the second must not fail
function createSchema(db: Db): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS threads (
      id TEXT PRIMARY KEY, title TEXT, agent_id TEXT NOT NULL, agent_name TEXT NOT NULL, mode TEXT NOT NULL,
      cwd TEXT NOT NULL, repo_root TEXT, status TEXT NOT NULL, turns INTEGER NOT NULL, messages INTEGER NOT NULL,
      created_at TEXT NOT NULL, last_activity TEXT NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL,
      mtime REAL NOT NULL, byte_offset INTEGER NOT NULL, head TEXT NOT NULL, state TEXT NOT NULL,
      started_from TEXT NOT NULL, archived INTEGER NOT NULL, worktree TEXT
    );
    CREATE INDEX IF NOT EXISTS threads_recent ON threads(last_activity DESC);
    CREATE INDEX IF NOT EXISTS threads_repo ON threads(repo_root, last_activity DESC);
    CREATE INDEX IF NOT EXISTS threads_cwd ON threads(cwd, last_activity DESC);
    CREATE INDEX IF NOT EXISTS threads_agent ON threads(agent_id, last_activity DESC);
    -- every list leaves archived threads out (or shows only them): without this, a full scan and sort (#36)
    CREATE INDEX IF NOT EXISTS threads_shown ON threads(archived, last_activity DESC, id DESC);
  `);
  createSyncStateSchema(db);
}

/**
 * Threads of a workspace folder: started in it or below it, or in the repository the folder is; a thread in a
 * worktree (#25, its folder beside the repository) belongs to the workspace of the repository it was made from
 * (the sessions tree's rule, src/core/index/thread-catalog.ts). Windows compares ignoring case (VS Code's fsPath
 * has a lowercase drive letter, a CLI's cwd an uppercase one) and with its own separator.
 */
export function workspaceClause(workspace: string, p: Platform = HOST_PLATFORM) {
  const { win, key } = workspaceKey(workspace, p);
  const col = (c: string) => (win ? `lower(${c})` : c);
  const below = (c: string) => `(${col(c)} = :ws OR substr(${col(c)}, 1, length(:wsSlash)) = :wsSlash)`;
  return {
    sql: `(${col("repo_root")} = :ws OR ${below("cwd")} OR ${below("json_extract(state, '$.worktree.repo')")})`,
    params: { ":ws": key, ":wsSlash": key + p.path.sep },
  };
}

/** The workspace as `workspaceClause` compares it: no trailing separator, lower case on Windows. */
function workspaceKey(workspace: string, p: Platform) {
  const win = isWindows(p);
  const ws = workspace.replace(win ? /[\\/]+$/ : /\/+$/, "");
  return { win, key: win ? ws.toLowerCase() : ws };
}

/** `workspaceClause` over a row in memory (threads-recent.ts): the same rule, the same answers. */
export function rowInWorkspace(
  t: Pick<IndexedThread, "repoRoot" | "cwd">,
  worktreeRepo: string | null,
  workspace: string,
  p: Platform = HOST_PLATFORM,
): boolean {
  const { win, key } = workspaceKey(workspace, p);
  const col = (c: string | null) => (c === null ? null : win ? c.toLowerCase() : c);
  const below = (c: string | null) => c !== null && (c === key || c.startsWith(key + p.path.sep));
  return col(t.repoRoot) === key || below(col(t.cwd)) || below(col(worktreeRepo));
}

/** What `list` returns (not the fold state nor the file cursor: a tenth of a row's bytes; #36). */
export const LIST_COLUMNS = `id, title, agent_id, agent_name, mode, cwd, repo_root, status, turns, messages, created_at,
  last_activity, path, size, started_from, archived, worktree`;

export class ThreadIndex {
  constructor(
    readonly db: Db,
    readonly created: boolean,
  ) {}

  count(): number {
    return Number(this.db.get<{ n: number }>("SELECT count(*) AS n FROM threads")?.n ?? 0);
  }

  /** Most recent first. */
  list(q: ThreadQuery = {}): IndexedThread[] {
    const where: string[] = [];
    const params: Record<string, string | number> = {};
    if (q.workspace) {
      const clause = workspaceClause(q.workspace);
      where.push(clause.sql);
      Object.assign(params, clause.params);
    }
    if (q.agent) {
      where.push("(agent_id = :agent OR agent_name = :agent)");
      params[":agent"] = q.agent;
    }
    const eq = (col: string, key: string, v: string | undefined) => {
      if (v === undefined) return;
      where.push(`${col} = :${key}`);
      params[`:${key}`] = v;
    };
    eq("started_from", "origin", q.origin);
    eq("status", "status", q.status);
    if (q.worktree) where.push("worktree IS NOT NULL");
    if (q.since) {
      where.push("last_activity >= :since");
      params[":since"] = q.since;
    }
    if (q.before) {
      where.push("last_activity < :before");
      params[":before"] = q.before;
    }
    const archived = q.archived ?? "exclude";
    if (archived !== "include") where.push(`archived = ${archived === "only" ? 1 : 0}`);
    const sql = `SELECT ${LIST_COLUMNS} FROM threads ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY last_activity DESC, id DESC ${q.limit ? `LIMIT ${Math.max(1, Math.floor(q.limit))}` : ""}`;
    return this.db.all<Record<string, string | number | null>>(sql, params).map(toThread);
  }

  /** Full folded metadata of the threads `list` returns (from the stored fold state). */
  listMetadata(q: ThreadQuery = {}): ThreadMetadata[] {
    const ids = this.list(q).map((t) => t.id);
    const stmt = this.db.prepare("SELECT state FROM threads WHERE id = ?");
    try {
      return ids.map((id) => JSON.parse(String(stmt.get<{ state: string }>([id])!.state)) as ThreadMetadata);
    } finally {
      stmt.finalize();
    }
  }

  get(id: string): IndexedThread | undefined {
    const row = this.db.get<Record<string, string | number | null>>("SELECT * FROM threads WHERE id = ?", [id]);
    return row && toThread(row);
  }

  close(): void {
    this.db.close();
  }
}

export function toThread(r: Record<string, string | number | null>): IndexedThread {
  return {
    id: String(r.id),
    title: r.title === null ? null : String(r.title),
    agentId: String(r.agent_id),
    agentName: String(r.agent_name),
    mode: String(r.mode),
    cwd: String(r.cwd),
    repoRoot: r.repo_root === null ? null : String(r.repo_root),
    status: String(r.status),
    turns: Number(r.turns),
    messages: Number(r.messages),
    createdAt: String(r.created_at),
    lastActivity: String(r.last_activity),
    path: String(r.path),
    size: Number(r.size),
    startedFrom: String(r.started_from),
    archived: Number(r.archived) === 1,
    worktree: r.worktree === null ? null : String(r.worktree),
  };
}

/**
 * Opens the index checking its header and schema only (#36: `quick_check` reads every page, a second of a
 * `threads list` at 10,000 threads); damage found later (SQLITE_CORRUPT) rebuilds it (`openSyncedIndex`).
 */
export function openThreadIndex(path: string, integrity: "header" | "quick_check" = "header"): ThreadIndex {
  const { db, created } = openDerivedDatabase(path, SCHEMA_VERSION, createSchema, { integrity });
  return new ThreadIndex(db, created);
}

/** `openThreadIndex` for the extension host: waits for a busy file without blocking the event loop. */
export async function openThreadIndexAsync(
  path: string,
  integrity: "header" | "quick_check" = "header",
): Promise<ThreadIndex> {
  const { db, created } = await openDerivedDatabaseAsync(path, SCHEMA_VERSION, createSchema, { integrity });
  return new ThreadIndex(db, created);
}

const CORRUPT = /malformed|corrupt|not a database/i;
const isCorrupt = (err: unknown) => err instanceof Error && CORRUPT.test(err.message);

/** Brings the index up to date with the store's files (threads-sync.ts; `full`: stat every file). */
export function syncThreadIndex(index: ThreadIndex, store: ThreadStore, opts: { full?: boolean } = {}): SyncStats {
  return syncIndexDb(index.db, store, opts);
}

/**
 * Opens (rebuilding if lost or corrupt), syncs and runs `use` on the index (`full`: stat every thread file);
 * damage met on the way (SQLITE_CORRUPT) rebuilds the index once from the files and runs `use` again.
 */
export function withSyncedIndex<T>(
  store: ThreadStore,
  use: (index: ThreadIndex, stats: SyncStats) => T,
  opts: { full?: boolean } = {},
): T {
  const run = (integrity: "header" | "quick_check") => {
    const index = openThreadIndex(store.layout.threadIndexDb, integrity);
    try {
      return use(index, syncThreadIndex(index, store, opts));
    } finally {
      index.close();
    }
  };
  try {
    return run("header");
  } catch (err) {
    if (!isCorrupt(err)) throw err;
    return run("quick_check"); // finds the damage, deletes the file and rebuilds it
  }
}

/** Opens (rebuilding if lost or corrupt) and syncs in one call; the caller closes the index. */
export function openSyncedIndex(store: ThreadStore): { index: ThreadIndex; stats: SyncStats } {
  const index = openThreadIndex(store.layout.threadIndexDb);
  try {
    return { index, stats: syncThreadIndex(index, store) };
  } catch (err) {
    index.close();
    if (!isCorrupt(err)) throw err;
    const fresh = openThreadIndex(store.layout.threadIndexDb, "quick_check");
    return { index: fresh, stats: syncThreadIndex(fresh, store) };
  }
}

/** The tree's fast path: sync the index and return the matching threads' metadata, most recent first. */
export async function listThreadsIndexed(store: ThreadStore, q: ThreadQuery = {}): Promise<ThreadMetadata[]> {
  for (const integrity of ["header", "quick_check"] as const) {
    const index = await openThreadIndexAsync(store.layout.threadIndexDb, integrity);
    try {
      syncThreadIndex(index, store);
      return index.listMetadata(q);
    } catch (err) {
      if (integrity === "quick_check" || !isCorrupt(err)) throw err;
    } finally {
      index.close();
    }
  }
  throw new Error("unreachable");
}
