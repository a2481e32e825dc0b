/**
 * The recall engine's public API, shared by the CLI, the MCP server and the VS Code panel:
 * `openRecall(home)` → search / recent / status / sync and import methods / close.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { openDerivedDatabase, openDerivedDatabaseAsync, type DerivedOpen } from "../db/sqlite";
import { sleepSync } from "../util/sleep";
import { AcpThreadsError } from "../errors";
import { tryAcquireLock } from "../store/file-lock";
import { homeLayout } from "../store/paths";
import { bulkImport, compactIndex, type CompactSummary } from "./compact";
import { discoverTranscripts } from "./discover";
import { addSummary, emptySummary, importSpecs, type SyncSummary } from "./import-run";
import { fingerprints, type Fingerprints, type ImportSpec } from "./importer";
import type { SourceName } from "./model";
import { recentSessions, type RecentOptions, type RecentResult } from "./recent";
import { createSchema, SCHEMA_VERSION, tune } from "./schema";
import { ImportCancelled, ImportTracker, type ImportControl } from "./progress";
import { defaultShardWorker, removeStaleShards, shardPathOf, ShardJob } from "./shard-import";
import { planShards } from "./shard-plan";
import { announceImport, importAnnounced, wantRead } from "./reader-turns";
import { search, type SearchOptions, type SearchResult } from "./search";
import { SessionFacts } from "./session-facts";
import { readSources, writeSources, type RootSpec, type SourcesFile } from "./sources";
import { detectSource } from "./detect";
import { readStatus, type RecallStatus } from "./status";
import { RecallWriter } from "./writer";

export type { SyncSummary } from "./import-run";

export interface Recall {
  readonly dbPath: string;
  /** True when this open created the index (missing, corrupt or old schema) and rebuilt it from known sources. */
  readonly rebuilt: boolean;
  search(query: string, opts?: SearchOptions): SearchResult;
  recent(opts?: RecentOptions): RecentResult;
  status(): RecallStatus;
  syncOwnThreads(ctl?: ImportControl): SyncSummary;
  importCodex(spec: RootSpec, ctl?: ImportControl): SyncSummary;
  importClaude(spec: RootSpec, ctl?: ImportControl): SyncSummary;
  archiveFile(path: string, opts?: { cwd?: string; sessionId?: string; source?: SourceName }): SyncSummary;
  /**
   * After an import that added `added` messages: merges the full-text index into one segment when that import
   * was a bulk one (compact.ts); undefined when there was nothing to do (not a bulk import, or the index already
   * has few segments). Stops when cancelled or when another import starts.
   */
  compactAfter(added: number, ctl?: ImportControl): CompactSummary | undefined;
  close(): void;
}

const CORRUPT = /malformed|corrupt|not a database/i;
/**
 * A read that met an importer's commit at a bad moment: FTS5 loads its config when a statement first touches the
 * table, and a lock it cannot get there surfaces as "vtable constructor failed" instead of SQLite's busy wait.
 */
const TRANSIENT = /vtable constructor failed|database is locked|SQLITE_BUSY/i;
/** How long a read keeps retrying; its marker (reader-turns.ts) makes the importer pause after its batch. */
const READ_RETRY_MS = 10_000;

function retried<T>(fn: () => T): T {
  const until = Date.now() + READ_RETRY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return fn();
    } catch (err) {
      if (Date.now() > until || !(err instanceof Error) || !TRANSIENT.test(err.message)) throw err;
      sleepSync(Math.min(100, 10 * attempt));
    }
  }
}

const recallDbPath = (home: string, opts: { dbPath?: string }) => opts.dbPath ?? homeLayout(home).recallDb;

/**
 * True when there is no index and nothing to build one from (no remembered sources, no thread of ours): a read
 * can answer "nothing" at once instead of creating an empty index (and loading SQLite) first.
 */
export function recallIsEmpty(home: string, opts: { dbPath?: string } = {}): boolean {
  const dbPath = recallDbPath(home, opts);
  if (existsSync(dbPath) || existsSync(join(dirname(dbPath), "recall-sources.json"))) return false;
  try {
    return !readdirSync(homeLayout(home).threadsDir).some((f) => f.endsWith(".jsonl"));
  } catch {
    return true; // no threads folder
  }
}

/** Opens the recall index (CLI: waits for a busy file synchronously). */
export interface RecallOptions {
  dbPath?: string;
  /**
   * The second core's import script (dist/shard-worker.js, found next to the running bundle by default); false
   * imports on this thread only (also `ACP_THREADS_RECALL_SHARDS=1`).
   */
  shardWorker?: string | false;
  /** Bytes of new files the second core must have before it is started (shard-plan.ts SHARD_MIN_BYTES). */
  shardMinBytes?: number;
  /** Messages per round of the second core (shard-import.ts ROUND_MESSAGES). */
  shardRoundMessages?: number;
}

export function openRecall(home: string, opts: RecallOptions = {}): Recall {
  const dbPath = recallDbPath(home, opts);
  const done = wantRead(dbPath);
  let opened: DerivedOpen;
  try {
    opened = openDerivedDatabase(dbPath, SCHEMA_VERSION, createSchema, HEADER);
  } finally {
    done();
  }
  return recallOn(home, dbPath, opened, opts);
}

/** Opens the recall index without blocking the thread while another process holds it (extension host). */
export async function openRecallAsync(home: string, opts: RecallOptions = {}): Promise<Recall> {
  const dbPath = recallDbPath(home, opts);
  const done = wantRead(dbPath);
  let opened: DerivedOpen;
  try {
    opened = await openDerivedDatabaseAsync(dbPath, SCHEMA_VERSION, createSchema, HEADER);
  } finally {
    done();
  }
  return recallOn(home, dbPath, opened, opts);
}

// opening reads the header and schema under the file's lock like any read (so with a reader's marker, wantRead):
// without one a running import re-takes the lock after every batch and the open waits for the whole import
const HEADER = { integrity: "header" } as const;

function recallOn(home: string, dbPath: string, opened: DerivedOpen, opts: RecallOptions): Recall {
  const layout = homeLayout(home);
  const shardWorker = opts.shardWorker ?? defaultShardWorker();
  const sourcesPath = join(dirname(dbPath), "recall-sources.json");
  let db = opened.db;
  const created = opened.created;
  tune(db);

  let facts = new SessionFacts();
  /** A read with priority over a running import (reader-turns.ts). */
  const reading = <T>(fn: () => T): T => {
    const done = wantRead(dbPath);
    try {
      return fn();
    } finally {
      done();
    }
  };

  const run = (source: SourceName, specs: ImportSpec[], ctl?: ImportControl): SyncSummary => {
    const started = performance.now();
    const sum: SyncSummary = { ...emptySummary(source), files: specs.length };
    const writer = new RecallWriter(db);
    const linked = new Set<string>();
    const known = fingerprints(db);
    const { shard, mine } = startShard(source, specs, known);
    const tracker = ctl
      ? new ImportTracker(
          source,
          mine.map((s) => s.path),
          shard && ctl.progress ? { ...ctl, progress: (p) => ctl.progress!(shard.add(p)) } : ctl,
          (p) => known.get(p)?.offset ?? 0,
        )
      : undefined;
    try {
      importSpecs(writer, mine, known, tracker, sum, linked);
      writer.commit();
      db.run("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [
        `last_sync:${source}`,
        String(Date.now()),
      ]);
    } catch (err) {
      shard?.cancel();
      if (!(err instanceof ImportCancelled)) throw err;
      // the batch in flight is rolled back (finalize); committed batches stay, and the next sync resumes them
      sum.cancelled = true;
      sum.messages = Math.max(0, writer.messagesCommitted);
    } finally {
      writer.finalize();
      if (shard) settleShard(shard, sum, ctl, tracker);
    }
    if (sum.cancelled) {
      sum.elapsed_ms = Math.round(performance.now() - started);
      return sum;
    }
    for (const path of linked) {
      // an exec thread's own Codex/Claude transcript is indexed with it, under its own source
      if (!existsSync(path)) continue;
      const source = detectSource(path);
      sum.messages += run(source, [{ path, source }]).messages;
    }
    sum.elapsed_ms = Math.round(performance.now() - started);
    return sum;
  };

  /** Starts the second core on a share of a bulk import's new files (shard-import.ts), when it is worth it. */
  const startShard = (
    source: SourceName,
    specs: ImportSpec[],
    known: Fingerprints,
  ): { shard?: ShardJob; mine: ImportSpec[] } => {
    // own threads (synced before every search) never go to a second core
    if (!shardWorker || source === "acp_threads") return { mine: specs };
    // every run holds the import lock: a round file now is one a killed import left behind
    removeStaleShards(dbPath);
    const plan = planShards(specs, {
      known: (p) => known.has(p),
      indexedSession: (id) => db.get("SELECT 1 AS x FROM sessions WHERE id = ?", id) !== undefined,
      minBytes: opts.shardMinBytes,
    });
    if (!plan) return { mine: specs };
    const top = db.get<{ m: number | null }>("SELECT max(sid) AS m FROM sessions")?.m ?? 0;
    // the main import adds at most one session per file before any round joins (linked transcripts come after),
    // so its sids stay below the floor; a splice refuses a round whose range the index already uses
    const floor = top + plan.mine.length + 1;
    const shard = new ShardJob(
      shardWorker,
      shardPathOf(dbPath),
      floor,
      source,
      plan.theirs,
      plan.theirBytes,
      opts.shardRoundMessages,
    );
    return { shard, mine: plan.mine };
  };

  /** Waits for the second core (passing on progress and cancel), then moves its share into the index. */
  const settleShard = (shard: ShardJob, sum: SyncSummary, ctl?: ImportControl, tracker?: ImportTracker) => {
    const out = shard.finish(
      dbPath,
      () => tracker && ctl?.progress?.(shard.add(tracker.snapshot())),
      () => ctl?.cancelled?.() ?? false,
    );
    if (out.sum) {
      addSummary(sum, out.sum);
      if (out.sum.cancelled) sum.cancelled = true;
    }
    if (out.rounds > 0)
      sum.sharded = {
        files: shard.specs.length,
        messages: out.sum?.messages ?? 0,
        rounds: out.rounds,
        splice_ms: out.spliceMs,
      };
    if (out.error) (sum.notes ??= []).push(`second import thread: ${out.error} (its files are read by the next sync)`);
  };

  /**
   * One importer per index across processes (the extension's automatic archive, a CLI bootstrap): two importers
   * reading the same file's offset would both append its tail. SQLite's own lock only covers one batch.
   */
  const importLock = `${dbPath}.import`;
  /** `wait`: how long to wait for the lock; a cancel (`ctl`) ends the wait with `onCancel`'s answer. */
  const exclusive = <T>(
    onBusy: (pid: number) => T,
    fn: () => T,
    wait?: { ms: number; ctl?: ImportControl; onCancel: () => T },
  ): T => {
    let release: () => void;
    for (const until = Date.now() + (wait?.ms ?? 0); ;) {
      // the holder comes with the refusal: asking liveWriter afterwards raced with its release
      const attempt = tryAcquireLock(importLock);
      if (attempt.ok) {
        release = attempt.release;
        break;
      }
      if (Date.now() >= until) return onBusy(attempt.holder.pid);
      if (wait?.ctl?.cancelled?.()) return wait.onCancel();
      sleepSync(50);
    }
    try {
      return fn();
    } finally {
      release();
    }
  };
  /**
   * An import waits this long for the lock before it refuses: the sync of our own threads that precedes every search
   * (another thread or process) holds it for milliseconds.
   */
  const IMPORT_WAIT_MS = 5000;
  const refuse = (pid: number): never => {
    throw new AcpThreadsError(
      "locked",
      `another recall import is running (pid ${pid}); run this again when it has finished`,
    );
  };

  const remember = (patch: (s: SourcesFile) => void) => {
    const s = readSources(sourcesPath);
    patch(s);
    writeSources(sourcesPath, s);
  };

  const codexSpecs = (spec: RootSpec): ImportSpec[] =>
    discoverTranscripts(spec.root, spec).map((f) => ({ path: f.path, source: "codex_rollout" }));
  const claudeSpecs = (spec: RootSpec): ImportSpec[] => {
    // parents before sub-agent files, so sidechain replays find the parent copy already indexed
    const files = discoverTranscripts(spec.root, spec);
    const sub = (p: string) => (/[\\/]subagents[\\/]/.test(p) ? 1 : 0);
    return files.sort((a, b) => sub(a.path) - sub(b.path)).map((f) => ({ path: f.path, source: "claude_code_jsonl" }));
  };
  const ownSpecs = (): ImportSpec[] =>
    discoverTranscripts(layout.threadsDir, { allHistory: true }).map((f) => ({ path: f.path, source: "acp_threads" }));

  /** An import the user asked for: waits a moment for the lock (or until it is cancelled), then refuses. */
  const importing = (source: SourceName, fn: () => SyncSummary, ctl?: ImportControl) =>
    exclusive(refuse, fn, {
      ms: IMPORT_WAIT_MS,
      ctl,
      onCancel: (): SyncSummary => ({ ...emptySummary(source), cancelled: true }),
    });
  const importRoot = (kind: "codex" | "claude", spec: RootSpec, ctl?: ImportControl) => {
    // a compaction (upkeep after an earlier bulk import) stops for it: the import needs the file more, and a bulk
    // one is compacted after it
    const announced = announceImport(dbPath);
    try {
      const source = kind === "codex" ? "codex_rollout" : "claude_code_jsonl";
      const specs = () => (kind === "codex" ? codexSpecs(spec) : claudeSpecs(spec));
      return importing(
        source,
        () => {
          remember((s) => (s[kind] = spec));
          return run(source, specs(), ctl);
        },
        ctl,
      );
    } finally {
      announced();
    }
  };

  const api: Recall = {
    dbPath,
    rebuilt: created,
    search: (query, o) => reading(() => guard(() => retried(() => db.read(() => search(db, query, o, facts))))),
    recent: (o) => reading(() => guard(() => retried(() => db.read(() => recentSessions(db, o))))),
    status: () => reading(() => retried(() => readStatus(db, dbPath))),
    syncOwnThreads: (ctl) =>
      exclusive(
        (): SyncSummary => ({ ...emptySummary("acp_threads"), busy: true }),
        () => run("acp_threads", ownSpecs(), ctl),
      ),
    importCodex: (spec, ctl) => importRoot("codex", spec, ctl),
    importClaude: (spec, ctl) => importRoot("claude", spec, ctl),
    archiveFile(path, o = {}) {
      statSync(path); // a clear ENOENT for a wrong path, before anything is written
      const source = o.source ?? detectSource(path);
      return importing(source, () => {
        remember((s) => {
          s.files = s.files.filter((f) => f.path !== path);
          s.files.push({ path, source, cwd: o.cwd, sessionId: o.sessionId });
        });
        return run(source, [{ path, source, cwd: o.cwd, sessionId: o.sessionId }]);
      });
    },
    compactAfter(added, ctl) {
      if (!bulkImport(db, added)) return undefined;
      // not any holder of the import lock: the sync of our own threads before every search takes it for a moment
      const c = compactIndex(db, () => (ctl?.cancelled?.() ?? false) || importAnnounced(dbPath));
      return c.steps > 0 || c.stopped ? c : undefined;
    },
    close: () => db.close(),
  };

  /** Rebuilds from the remembered sources (after a missing/corrupt/old index); skipped while another imports. */
  const rebuild = () =>
    exclusive(
      () => undefined,
      () => {
        const s = readSources(sourcesPath);
        if (s.codex) run("codex_rollout", codexSpecs(s.codex));
        if (s.claude) run("claude_code_jsonl", claudeSpecs(s.claude));
        for (const f of s.files) run(f.source, [f]);
        run("acp_threads", ownSpecs());
      },
    );

  function guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof Error) || !CORRUPT.test(err.message)) throw err;
      // the cache is damaged: drop it, rebuild from the transcripts, answer from the fresh copy
      db.close();
      ({ db } = openDerivedDatabase(dbPath, SCHEMA_VERSION, createSchema, { integrity: "quick_check" }));
      facts = new SessionFacts();
      tune(db);
      rebuild();
      return fn();
    }
  }

  if (created) rebuild();
  return api;
}
