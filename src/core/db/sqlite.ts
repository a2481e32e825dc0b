/**
 * The one SQLite engine behind both derived indexes (thread metadata and recall): node-sqlite3-wasm, a WASM
 * SQLite with FTS5 that reads and writes pages in the file itself (no whole-image export, no native ABI).
 * Why not sql.js: see README "Design notes" (cold open and memory figures from `npm run bench:recall`).
 *
 * Every database here is a cache that can be rebuilt from the JSONL files, so `openDerivedDatabase`
 * treats a corrupt file or an old schema as "delete and rebuild", never as an error for the user.
 */
import { chmodSync, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "node-sqlite3-wasm";
import { sleepSync } from "../util/sleep";

/**
 * Loaded on the first open, not with this module: requiring node-sqlite3-wasm compiles 1.3 MB of WASM, which a
 * CLI command that ends up not opening a database (`status` on an empty store, `--help`) should not pay, and a
 * one-shot query sets its V8 WASM flags first (src/core/recall/v8-flags.ts).
 */
let wasm: typeof import("node-sqlite3-wasm") | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy, see above
const loadWasm = () => (wasm ??= require("node-sqlite3-wasm") as typeof import("node-sqlite3-wasm"));

export type SqlValue = number | bigint | string | Uint8Array | null;
export type Row = Record<string, SqlValue>;
export type Params = SqlValue | boolean | (SqlValue | boolean)[] | Record<string, SqlValue | boolean>;

export interface Db {
  readonly path: string;
  exec(sql: string): void;
  run(sql: string, params?: Params): { changes: number; lastInsertRowid: number | bigint };
  all<T = Row>(sql: string, params?: Params): T[];
  get<T = Row>(sql: string, params?: Params): T | undefined;
  prepare(sql: string): Stmt;
  /** Runs `fn` in BEGIN IMMEDIATE ... COMMIT (ROLLBACK on throw). */
  transaction<T>(fn: () => T): T;
  /**
   * Runs a group of reads under one shared lock (BEGIN ... COMMIT). node-sqlite3-wasm takes its lock with a
   * mkdir/rmdir per statement in autocommit mode and then re-validates its page cache: one lock per query
   * instead of one per statement.
   */
  read<T>(fn: () => T): T;
  close(): void;
}

export interface Stmt {
  run(params?: Params): { changes: number; lastInsertRowid: number | bigint };
  all<T = Row>(params?: Params): T[];
  get<T = Row>(params?: Params): T | undefined;
  finalize(): void;
}

/** The lock directory node-sqlite3-wasm creates next to the file while a transaction holds it. */
const lockDir = (path: string) => `${path}.lock`;
/** A lock older than this with nobody holding it is stale (a process killed mid-transaction). */
const STALE_LOCK_MS = 30_000;

function clearStaleLock(path: string): void {
  try {
    const st = statSync(lockDir(path));
    if (Date.now() - st.mtimeMs > STALE_LOCK_MS) rmSync(lockDir(path), { recursive: true, force: true });
  } catch {
    // no lock: nothing to do
  }
}

class WasmDb implements Db {
  readonly #db: Database;
  constructor(
    readonly path: string,
    readOnly: boolean,
  ) {
    clearStaleLock(path);
    this.#db = new (loadWasm().Database)(path, { readOnly });
  }
  exec(sql: string): void {
    this.#db.exec(sql);
  }
  run(sql: string, params?: Params) {
    return this.#db.run(sql, params as never);
  }
  all<T = Row>(sql: string, params?: Params): T[] {
    return this.#db.all(sql, params as never) as T[];
  }
  get<T = Row>(sql: string, params?: Params): T | undefined {
    return (this.#db.get(sql, params as never) as T | null) ?? undefined;
  }
  prepare(sql: string): Stmt {
    const stmt = this.#db.prepare(sql);
    return {
      run: (p) => stmt.run(p as never),
      all: <T>(p?: Params) => stmt.all(p as never) as T[],
      get: <T>(p?: Params) => (stmt.get(p as never) as T | null) ?? undefined,
      finalize: () => stmt.finalize(),
    };
  }
  transaction<T>(fn: () => T): T {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const result = fn();
      this.#db.exec("COMMIT");
      return result;
    } catch (err) {
      if (this.#db.inTransaction) this.#db.exec("ROLLBACK");
      throw err;
    }
  }
  read<T>(fn: () => T): T {
    if (this.#db.inTransaction) return fn();
    this.#db.exec("BEGIN");
    try {
      return fn();
    } finally {
      if (this.#db.inTransaction) this.#db.exec("COMMIT");
    }
  }
  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}

/** How long a statement waits for another process's lock. The wait happens inside SQLite (WASM) and blocks. */
export const BUSY_TIMEOUT_MS = 5000;

export function openDatabase(path: string, opts: { readOnly?: boolean; busyTimeoutMs?: number } = {}): Db {
  if (!opts.readOnly) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const db = new WasmDb(path, opts.readOnly ?? false);
  if (!opts.readOnly && existsSync(path)) chmodSync(path, 0o600);
  // node-sqlite3-wasm locks with a mkdir lock for readers and writers alike: wait for a writer's short batch
  // instead of failing with SQLITE_BUSY
  db.exec(`PRAGMA busy_timeout = ${opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS}`);
  return db;
}

export type DerivedOpen = { db: Db; created: boolean };
type CreateSchema = (db: Db) => void;
interface DerivedOptions {
  integrity?: "quick_check" | "header";
}

/**
 * Opens a derived cache at `path` whose schema is `schemaVersion`; a missing, corrupt or old-schema file is
 * deleted and `create` builds it afresh. Returns whether it was (re)created, so the caller knows to rebuild.
 * While another process holds the file it waits (up to OPEN_BUSY_RETRIES × OPEN_BUSY_WAIT_MS): this version
 * sleeps synchronously and is for short-lived CLI processes; the extension host uses `openDerivedDatabaseAsync`,
 * which waits on a timer so the host's event loop keeps turning.
 */
export function openDerivedDatabase(
  path: string,
  schemaVersion: number,
  create: CreateSchema,
  opts: DerivedOptions = {},
): DerivedOpen {
  const steps = openSteps(path, schemaVersion, create, opts, BUSY_TIMEOUT_MS);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    sleepSync(step.value);
  }
}

/** `openDerivedDatabase` that waits for a busy file without blocking the thread (same retries and outcome). */
export async function openDerivedDatabaseAsync(
  path: string,
  schemaVersion: number,
  create: CreateSchema,
  opts: DerivedOptions = {},
): Promise<DerivedOpen> {
  // probe without SQLite's own (blocking) busy wait: a busy file fails at once and is retried on a timer
  const steps = openSteps(path, schemaVersion, create, opts, 0);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) {
      step.value.db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      return step.value;
    }
    await sleep(step.value);
  }
}

/** The open-or-rebuild procedure, yielding each wait (ms) to its driver so sync and async share one logic. */
function* openSteps(
  path: string,
  schemaVersion: number,
  create: CreateSchema,
  opts: DerivedOptions,
  busyTimeoutMs: number,
): Generator<number, DerivedOpen, void> {
  // "busy" = another process holds the file (it may be creating the same index right now): wait and retry,
  // never delete. "bad" = corrupt or another schema: delete and rebuild (it is a cache).
  type Attempt = DerivedOpen | "busy" | "unsure" | "bad";
  const tryOpen = (): Attempt => {
    let db: Db | undefined;
    try {
      db = openDatabase(path, { busyTimeoutMs });
      const row = db.get<{ user_version: number }>("PRAGMA user_version");
      // quick_check reads every page (seconds for a large index): callers on a latency budget check only the
      // header and schema here and treat SQLITE_CORRUPT at query time as "rebuild"
      const ok =
        opts.integrity === "header"
          ? db.get("SELECT count(*) AS n FROM sqlite_master") !== undefined
          : db.get<{ quick_check: string }>("PRAGMA quick_check")?.quick_check === "ok";
      if (row?.user_version === schemaVersion && ok) return { db, created: false };
      if (row?.user_version === 0 && db.get("SELECT 1 AS x FROM sqlite_master LIMIT 1") === undefined) {
        const fresh = db;
        const created = fresh.transaction(() => {
          // Another process may have created it while we waited for the write lock: then it is ours to use.
          if (fresh.get<{ user_version: number }>("PRAGMA user_version")?.user_version === schemaVersion) return false;
          create(fresh);
          fresh.exec(`PRAGMA user_version = ${schemaVersion}`);
          return true;
        });
        chmodSync(path, 0o600); // SQLite created the file with the umask's mode
        return { db: fresh, created };
      }
      db.close();
      // Tables but no version yet: another process may be creating it right now. Look again before deleting.
      return row?.user_version === 0 ? "unsure" : "bad";
    } catch (err) {
      db?.close();
      return /busy|locked/i.test(err instanceof Error ? err.message : String(err)) ? "busy" : "bad";
    }
  };
  function* attempt(): Generator<number, Attempt, void> {
    for (let i = 0; ; i++) {
      const r = tryOpen();
      if (r === "unsure" && i >= OPEN_UNSURE_RETRIES) return "bad";
      if ((r !== "busy" && r !== "unsure") || i >= OPEN_BUSY_RETRIES) return r;
      yield OPEN_BUSY_WAIT_MS;
    }
  }
  const first = yield* attempt();
  if (typeof first === "object") return first;
  if (first === "busy") throw new Error(`the index database at ${path} stays locked by another process`);
  for (const suffix of ["", "-journal", ".lock"]) rmSync(path + suffix, { recursive: true, force: true });
  const second = yield* attempt();
  if (typeof second !== "object") throw new Error(`cannot create the index database at ${path}`);
  return second;
}

export const OPEN_BUSY_RETRIES = 50;
export const OPEN_BUSY_WAIT_MS = 100;
const OPEN_UNSURE_RETRIES = 10;
