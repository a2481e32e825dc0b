/**
 * A bulk import on two cores. One SQLite file has one writer and FTS5 tokenizing is what an import spends its time
 * on, so the new files are split (shard-plan.ts): the main import reads its share into the index while a worker
 * thread (shard.worker.ts) reads the other share into shard files next to it, one per round of ~ROUND_MESSAGES
 * messages. The shard's sessions take sids from a floor up, above any the main import can reach before the
 * rounds join (one new session per file), so their rowids never meet. When the main import has read its share, the rounds are moved into the
 * index as they are finished, one transaction each (fts-splice.ts: the FTS segments are copied, no word is
 * tokenized twice), searches getting their turn in between, and each round's file is deleted. Not earlier: the
 * main import's automerge would then merge the moved segments on its own thread (measured at 1M messages: 1.22×
 * one core instead of 1.69×). The main thread waits for the worker synchronously (the importer is synchronous),
 * passing on cancellation and progress. A stopped import moves what the shard committed; whatever it had not read
 * is still absent from the index's files table, so the next sync reads it.
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename, dirname, join } from "node:path";
import type { MessagePort, Worker } from "node:worker_threads";
import { openDatabase, type Db } from "../db/sqlite";
import { spliceFts } from "./fts-splice";
import { emptySummary, importSpecs, type SyncSummary } from "./import-run";
import type { ImportSpec } from "./importer";
import type { SourceName } from "./model";
import { ImportCancelled, ImportTracker, type ImportProgress } from "./progress";
import { giveReadersTheirTurn } from "./reader-turns";
import { createSchema, SCHEMA_VERSION, tune } from "./schema";
import { RecallWriter } from "./writer";
import { background } from "../util/unexpected";

/** node:worker_threads, loaded when an import starts a shard (a CLI query loads this module and never needs it). */
const threads = () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy, see above
  require("node:worker_threads") as typeof import("node:worker_threads");

/** What the worker is started with. */
export interface ShardData {
  /** Round k is written to `${base}-${k}`. */
  base: string;
  floor: number;
  source: SourceName;
  specs: ImportSpec[];
  roundMessages: number;
  /** Int32 [state, cancel, rounds ready] then Float64 [bytesDone, messages, filesDone, heartbeat ms] */
  shared: SharedArrayBuffer;
  port: MessagePort;
}

/** Messages per round: its move into the index is one transaction that searches wait for. */
export const ROUND_MESSAGES = 50_000;
const RUNNING = 0;
const DONE = 1;
/** The worker must say it started within this, and report at least this often while it reads. */
const START_LIMIT_MS = 20_000;
const STALL_LIMIT_MS = 120_000;
const FLOOR_SOURCE = "shard-floor";

const flagsOf = (shared: SharedArrayBuffer) => new Int32Array(shared, 0, 3);
const numbersOf = (shared: SharedArrayBuffer) => new Float64Array(shared, 16, 4);
const roundPath = (base: string, k: number) => `${base}-${k}`;

export const shardPathOf = (dbPath: string) => `${dbPath}.shard`;

/**
 * dist/shard-worker.js next to the running bundle (dist/ or dist/cli/), or false when there is none (a test
 * bundle), the machine has one core, or `ACP_THREADS_RECALL_SHARDS=1` asks for one.
 */
export function defaultShardWorker(): string | false {
  if (process.env.ACP_THREADS_RECALL_SHARDS === "1" || availableParallelism() < 2) return false;
  return (
    [join(__dirname, "shard-worker.js"), join(__dirname, "..", "shard-worker.js")].find((p) => existsSync(p)) ?? false
  );
}

/** Deletes a shard file and its journal and lock (quietly: a shard that cannot be removed is replaced next time). */
export function removeShard(path: string): void {
  for (const suffix of ["", "-journal", ".lock"])
    try {
      rmSync(path + suffix, { recursive: true, force: true });
    } catch {
      // the worker removes it again before it writes there
    }
}

/** Removes the round files a killed import left next to the index at `dbPath`. */
export function removeStaleShards(dbPath: string): void {
  const prefix = `${basename(shardPathOf(dbPath))}-`;
  let names: string[];
  try {
    names = readdirSync(dirname(dbPath));
  } catch {
    return;
  }
  for (const name of names)
    if (name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length))) removeShard(join(dirname(dbPath), name));
}

/** The worker's side: imports `specs` into round files and says how it went. */
export function importShard(data: ShardData): void {
  const flags = flagsOf(data.shared);
  const nums = numbersOf(data.shared);
  nums[3] = Date.now();
  const sum: SyncSummary = { ...emptySummary(data.source), files: data.specs.length };
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
  let round: { db: Db; writer: RecallWriter } | undefined;
  let rounds = 0;
  let nextSid = data.floor;
  let committed = 0;
  const open = () => {
    const path = roundPath(data.base, rounds);
    removeShard(path); // one a crashed import left behind
    const db = openDatabase(path);
    try {
      tune(db);
      db.transaction(() => {
        createSchema(db);
        db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
        // sids go on from here: the row itself is not moved into the index
        db.run("INSERT INTO sessions(sid, source, path) VALUES (?, ?, '')", [nextSid - 1, FLOOR_SOURCE]);
      });
    } catch (err) {
      db.close();
      throw err;
    }
    return { db, writer: new RecallWriter(db) };
  };
  /** Ends the round (committed or, when stopped, rolled back to its last batch) and hands it over. */
  const close = (commit: boolean) => {
    if (!round) return;
    const { db, writer } = round;
    round = undefined;
    try {
      if (commit) writer.commit();
      writer.finalize();
      committed += writer.messagesCommitted;
      nextSid = (db.get<{ m: number }>("SELECT max(sid) AS m FROM sessions")?.m ?? nextSid - 1) + 1;
    } finally {
      db.close();
    }
    Atomics.store(flags, 2, ++rounds);
  };
  let error: string | undefined;
  try {
    for (const spec of data.specs) {
      round ??= open();
      importSpecs(round.writer, [spec], new Map(), tracker, sum);
      if (round.writer.messagesWritten >= data.roundMessages) close(true);
    }
    close(true);
  } catch (err) {
    if (err instanceof ImportCancelled) sum.cancelled = true;
    else error = err instanceof Error ? err.message : String(err);
    try {
      close(false);
    } catch (closing) {
      error ??= closing instanceof Error ? closing.message : String(closing);
    }
  }
  sum.messages = committed;
  data.port.postMessage({ sum, error });
  Atomics.store(flags, 0, DONE);
  Atomics.notify(flags, 0);
}

export interface ShardOutcome {
  /** The shard's own summary (absent when the worker never answered). */
  sum?: SyncSummary;
  error?: string;
  rounds: number;
  spliceMs: number;
}

/** The main thread's handle on a running shard import. */
export class ShardJob {
  readonly #shared = new SharedArrayBuffer(16 + 32);
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #started = Date.now();
  readonly #out: ShardOutcome = { rounds: 0, spliceMs: 0 };

  constructor(
    script: string,
    readonly base: string,
    readonly floor: number,
    source: SourceName,
    readonly specs: ImportSpec[],
    readonly bytes: number,
    roundMessages = ROUND_MESSAGES,
  ) {
    const wt = threads();
    const { port1, port2 } = new wt.MessageChannel();
    this.#port = port1;
    const data: ShardData = {
      base,
      floor,
      source,
      specs,
      roundMessages,
      shared: this.#shared,
      port: port2,
    };
    this.#worker = new wt.Worker(script, { workerData: data, transferList: [port2] });
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
   * Moves the rounds the worker has finished into the index at `dbPath`. A round that cannot be moved is dropped:
   * its files are read again by the next sync.
   */
  #spliceReady(dbPath: string): void {
    const ready = Atomics.load(flagsOf(this.#shared), 2);
    for (; this.#out.rounds < ready; this.#out.rounds++) {
      const path = roundPath(this.base, this.#out.rounds);
      try {
        this.#out.spliceMs += spliceShard(dbPath, path);
      } catch (err) {
        this.#out.error ??= err instanceof Error ? err.message : String(err);
      } finally {
        removeShard(path);
      }
      giveReadersTheirTurn(dbPath);
    }
  }

  /**
   * Waits for the worker (asking `cancelled`, calling `tick` and moving finished rounds every 100 ms), then moves
   * its last rounds. Never throws: a failed shard leaves its files to the next sync.
   */
  finish(dbPath: string, tick: () => void, cancelled: () => boolean): ShardOutcome {
    const flags = flagsOf(this.#shared);
    const nums = numbersOf(this.#shared);
    while (Atomics.load(flags, 0) === RUNNING) {
      Atomics.wait(flags, 0, RUNNING, 100);
      if (cancelled()) this.cancel();
      this.#spliceReady(dbPath);
      tick();
      const quiet = Date.now() - (nums[3] || this.#started);
      if (quiet > (nums[3] ? STALL_LIMIT_MS : START_LIMIT_MS)) {
        this.#out.error ??= `the second import thread stopped answering (${Math.round(quiet / 1000)} s)`;
        background(this.#worker.terminate(), "stopping a stalled import thread");
        break;
      }
    }
    const reply = threads().receiveMessageOnPort(this.#port)?.message as
      { sum: SyncSummary; error?: string } | undefined;
    this.#port.close();
    if (reply) this.#spliceReady(dbPath);
    tick(); // its last report
    return { ...this.#out, sum: reply?.sum, error: this.#out.error ?? reply?.error };
  }
}

/**
 * Moves a round's sessions, messages, files, chain links and FTS segments into the index, in one transaction;
 * returns the milliseconds it took.
 */
export function spliceShard(dbPath: string, path: string): number {
  const t0 = performance.now();
  // its own connection: the importing connection's FTS5 keeps the structure it read until another connection
  // changes the file (PRAGMA data_version), so it must see this splice as another connection's write
  const db = openDatabase(dbPath);
  try {
    db.run("ATTACH DATABASE ? AS shard", path);
    try {
      db.transaction(() => {
        const floor = db.get<{ f: number }>(
          "SELECT sid + 1 AS f FROM shard.sessions WHERE source = ?",
          FLOOR_SOURCE,
        )?.f;
        if (floor === undefined) throw new Error(`${path} is not a recall shard`);
        if (db.get("SELECT 1 AS x FROM main.sessions WHERE sid >= ? LIMIT 1", floor))
          throw new Error(`the index already has sessions from sid ${floor} up, the shard's range`);
        spliceFts(db, "shard");
        db.run("INSERT INTO main.sessions SELECT * FROM shard.sessions WHERE sid >= ?", floor);
        db.run("INSERT INTO main.messages SELECT * FROM shard.messages");
        db.run("INSERT INTO main.chain_nodes SELECT * FROM shard.chain_nodes");
        db.run("INSERT INTO main.files SELECT * FROM shard.files");
      });
      return Math.round(performance.now() - t0);
    } finally {
      db.run("DETACH DATABASE shard");
    }
  } finally {
    db.close();
  }
}
