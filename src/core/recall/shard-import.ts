/**
 * A bulk import on two cores. One SQLite file has one writer and FTS5 tokenizing is what an import spends its time
 * on, so the new files are split (shard-plan.ts): the main import reads its share into the index while a worker
 * thread (shard.worker.ts) reads the other share into a fresh shard file next to it, whose sessions start at a sid
 * above any the main import can reach (so their rowids never meet). When both are done the shard's rows and its
 * FTS segments are moved into the index in one transaction (fts-splice.ts: no word is tokenized twice) and the
 * shard file is deleted. The main thread waits for the worker synchronously (the importer is synchronous), passing
 * on cancellation and progress. A stopped import moves what the shard committed; whatever it had not read is
 * still absent from the index's files table, so the next sync reads it.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { openDatabase } from "../db/sqlite";
import { spliceFts } from "./fts-splice";
import { emptySummary, importSpecs, type SyncSummary } from "./import-run";
import type { ImportSpec } from "./importer";
import type { SourceName } from "./model";
import { ImportCancelled, ImportTracker, type ImportProgress } from "./progress";
import { createSchema, SCHEMA_VERSION, tune } from "./schema";
import { RecallWriter } from "./writer";

/** What the worker is started with. */
export interface ShardData {
  shardPath: string;
  floor: number;
  source: SourceName;
  specs: ImportSpec[];
  /** Int32 [state, cancel] then Float64 [bytesDone, messages, filesDone, heartbeat ms] */
  shared: SharedArrayBuffer;
  port: MessagePort;
}

const RUNNING = 0;
const DONE = 1;
/** The worker must say it started within this, and report at least this often while it reads. */
const START_LIMIT_MS = 20_000;
const STALL_LIMIT_MS = 120_000;

const flagsOf = (shared: SharedArrayBuffer) => new Int32Array(shared, 0, 2);
const numbersOf = (shared: SharedArrayBuffer) => new Float64Array(shared, 8, 4);

export const shardPathOf = (dbPath: string) => `${dbPath}.shard`;

/**
 * dist/shard-worker.js next to the running bundle (dist/ or dist/cli/), or false when there is none (a test
 * bundle) or `ACP_THREADS_RECALL_SHARDS=1` asks for one core.
 */
export function defaultShardWorker(): string | false {
  if (process.env.ACP_THREADS_RECALL_SHARDS === "1") return false;
  return (
    [join(__dirname, "shard-worker.js"), join(__dirname, "..", "shard-worker.js")].find((p) => existsSync(p)) ?? false
  );
}

/** Deletes a shard file and its journal and lock (quietly: a shard that cannot be removed is replaced next time). */
export function removeShard(shardPath: string): void {
  for (const suffix of ["", "-journal", ".lock"])
    try {
      rmSync(shardPath + suffix, { recursive: true, force: true });
    } catch {
      // the worker removes it again before its next import
    }
}

/** The worker's side: imports `specs` into a fresh shard file and says how it went. */
export function importShard(data: ShardData): void {
  const flags = flagsOf(data.shared);
  const nums = numbersOf(data.shared);
  nums[3] = Date.now();
  const sum: SyncSummary = { ...emptySummary(data.source), files: data.specs.length };
  let error: string | undefined;
  try {
    removeShard(data.shardPath); // one a crashed import left behind
    const db = openDatabase(data.shardPath);
    try {
      tune(db);
      db.transaction(() => {
        createSchema(db);
        db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
        // sids go on from here: the row itself is not moved into the index
        db.run("INSERT INTO sessions(sid, source, path) VALUES (?, 'shard-floor', '')", data.floor - 1);
      });
      const writer = new RecallWriter(db);
      const tracker = new ImportTracker(
        data.source,
        data.specs.map((s) => s.path),
        {
          cancelled: () => Atomics.load(flags, 1) === 1,
          progress: (p) => {
            nums[0] = p.bytesDone;
            nums[1] = p.messages;
            nums[2] = p.filesDone;
            nums[3] = Date.now();
          },
          reportEveryMs: 50,
        },
        () => 0,
      );
      try {
        importSpecs(writer, data.specs, new Map(), tracker, sum);
        writer.commit();
      } catch (err) {
        if (!(err instanceof ImportCancelled)) throw err;
        sum.cancelled = true;
        sum.messages = Math.max(0, writer.messagesCommitted);
      } finally {
        writer.finalize();
      }
    } finally {
      db.close();
    }
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  data.port.postMessage({ sum, error });
  Atomics.store(flags, 0, DONE);
  Atomics.notify(flags, 0);
}

export interface ShardOutcome {
  /** The shard's own summary (absent when the worker never answered). */
  sum?: SyncSummary;
  error?: string;
  spliced?: { segments: number; rows: number; ms: number };
}

/** The main thread's handle on a running shard import. */
export class ShardJob {
  readonly #shared = new SharedArrayBuffer(8 + 32);
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #started = Date.now();

  constructor(
    script: string,
    readonly shardPath: string,
    readonly floor: number,
    source: SourceName,
    readonly specs: ImportSpec[],
    readonly bytes: number,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    const data: ShardData = { shardPath, floor, source, specs, shared: this.#shared, port: port2 };
    this.#worker = new Worker(script, { workerData: data, transferList: [port2] });
    this.#worker.unref();
  }

  /** The main import's progress with the shard's share added. */
  add(p: ImportProgress): ImportProgress {
    const n = numbersOf(this.#shared);
    return {
      ...p,
      files: p.files + this.specs.length,
      filesDone: p.filesDone + n[2],
      bytes: p.bytes + this.bytes,
      bytesDone: p.bytesDone + Math.min(n[0], this.bytes),
      messages: p.messages + n[1],
    };
  }

  cancel(): void {
    Atomics.store(flagsOf(this.#shared), 1, 1);
  }

  /**
   * Waits for the worker (asking `cancelled` and calling `tick` every 100 ms), then moves what it committed into
   * the index at `dbPath` and deletes the shard file. Never throws: a failed shard leaves its files to the next sync.
   */
  finish(dbPath: string, tick: () => void, cancelled: () => boolean): ShardOutcome {
    const flags = flagsOf(this.#shared);
    const nums = numbersOf(this.#shared);
    let error: string | undefined;
    while (Atomics.load(flags, 0) === RUNNING) {
      Atomics.wait(flags, 0, RUNNING, 100);
      if (cancelled()) this.cancel();
      tick();
      const quiet = Date.now() - (nums[3] || this.#started);
      if (quiet > (nums[3] ? STALL_LIMIT_MS : START_LIMIT_MS)) {
        error = `the second import thread stopped answering (${Math.round(quiet / 1000)} s)`;
        void this.#worker.terminate();
        break;
      }
    }
    tick(); // its last report
    const reply = receiveMessageOnPort(this.#port)?.message as { sum: SyncSummary; error?: string } | undefined;
    this.#port.close();
    const out: ShardOutcome = { sum: reply?.sum, error: error ?? reply?.error };
    try {
      if (reply && existsSync(this.shardPath)) out.spliced = spliceShard(dbPath, this.shardPath, this.floor);
    } catch (err) {
      out.error ??= err instanceof Error ? err.message : String(err);
    } finally {
      removeShard(this.shardPath);
    }
    return out;
  }
}

/** Moves the shard's sessions, messages, files, chain links and FTS segments into the index, in one transaction. */
export function spliceShard(
  dbPath: string,
  shardPath: string,
  floor: number,
): { segments: number; rows: number; ms: number } {
  const t0 = performance.now();
  // its own connection: the importing connection's FTS5 keeps the structure it read until another connection
  // changes the file (PRAGMA data_version), so it must see this splice as another connection's write
  const db = openDatabase(dbPath);
  try {
    db.run("ATTACH DATABASE ? AS shard", shardPath);
    try {
      const r = db.transaction(() => {
        const top = db.get<{ m: number | null }>("SELECT max(sid) AS m FROM main.sessions")?.m ?? 0;
        if (top >= floor) throw new Error(`the index reached sid ${top}, past the shard's first sid ${floor}`);
        const fts = spliceFts(db, "shard");
        db.run("INSERT INTO main.sessions SELECT * FROM shard.sessions WHERE sid >= ?", floor);
        db.run("INSERT INTO main.messages SELECT * FROM shard.messages");
        db.run("INSERT INTO main.chain_nodes SELECT * FROM shard.chain_nodes");
        db.run("INSERT INTO main.files SELECT * FROM shard.files");
        return fts;
      });
      return { ...r, ms: Math.round(performance.now() - t0) };
    } finally {
      db.run("DETACH DATABASE shard");
    }
  } finally {
    db.close();
  }
}
