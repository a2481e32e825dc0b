/**
 * Append-only JSONL writer, one per file (advisory pid lock). Each record is one `write` of a whole line;
 * `sync()` (fsync) is called by the owner at turn boundaries, not per chunk. Reopening a file whose last
 * line is torn truncates that partial line first, so new records never glue onto garbage.
 *
 * Durability contract: a record is written (write(2)) at once, in `append`, so a crash of this process never loses
 * it and every reader sees it. A writer opened with `pool` (the extension host's) queues it instead: its byte range
 * is taken in `append` and the bytes go out in order on the thread pool (ordered-writes.ts), so the caller's thread
 * never waits on the disk and a reader sees whole records in order (at most a torn last line), never a hole. The
 * durability points (`sync`, `syncSoon`, `durable`, the closes) come after every record queued before them. It is
 * durable (survives a crash of the machine) after `sync()` returns, or shortly after `syncSoon()`: that fsync runs
 * on libuv's thread pool, the caller's thread (the extension host) never waits for the disk. At most one such fsync is in flight; asking again while it runs schedules one more, which
 * covers everything written until it starts. `close()` fsyncs itself; an fsync still in flight keeps the fd open
 * until it ends, so no fsync ever runs on a closed (or reused) fd number.
 *
 * `closeSoon()` (a writer opened with `openAsync`, closed by the extension host) closes without waiting on the
 * caller's thread: writes are refused at once; then the fsync in flight ends, one more fsync runs on the thread pool
 * if anything was written after it started, the fd closes, and the lock is released asynchronously, in that order.
 * `finishClose()` does what is left of that synchronously (a synchronous reopen of the same file, a synchronous exit).
 */
import { chmodSync, close, closeSync, fstatSync, fsync, fsyncSync, mkdirSync, fstat, open, openSync } from "node:fs";
import { chmod, mkdir } from "node:fs/promises";
import { errorMessage } from "../errors";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { nullLogger, type Logger } from "../log";
import { acquireLock, lockedError, tryAcquireLockAsync } from "./file-lock";
import { repairTornTail, repairTornTailAsync } from "./torn-tail";
import { OrderedWrites, openFlags, type Landed } from "./ordered-writes";
import { serializeRecord, stampRecord, type RecordInput, type ThreadRecord } from "../model/records";

const openAsync = promisify(open);
const fstatAsync = promisify(fstat);
/** `fsync` and `close` on the thread pool, looked up when called (not bound once), like `syncSoon`'s. */
const onPool = (call: typeof fsync | typeof close, fd: number) =>
  new Promise<void>((resolve, reject) => call(fd, (err) => (err ? reject(err) : resolve())));
const fsyncAsync = (fd: number) => onPool(fsync, fd);
const closeAsync = (fd: number) => onPool(close, fd);

export interface JsonlWriterOptions {
  logger?: Logger;
  /** Create the file if missing (default true). */
  create?: boolean;
  /**
   * `openAsync` only: records are written in order on the thread pool, not with `writeSync` in `append` (the
   * extension host's writers, durability "soon"; see the top of this file).
   */
  pool?: boolean;
  /** Queued bytes past which `append` writes on the caller's thread (ordered-writes.ts; tests shrink it). */
  maxQueued?: number;
}

/** Records landed in the file at `start`..`end` (in order; at once for a synchronous write). */
export type RecordsLanded = (records: ThreadRecord[], start: number, end: number) => void;

export class JsonlWriter {
  readonly path: string;
  #fd: number | undefined;
  #release: () => void;
  readonly #writes: OrderedWrites;
  #dirty = false;
  readonly #logger: Logger;
  /** An fsync on the thread pool (`syncSoon`). */
  #inFlight = false;
  /** Writes came after the fsync in flight started and were asked to be made durable too. */
  #again = false;
  /** `close()` came while an fsync or a write was in flight on the pool: the fd closes once both ended. */
  #closeWhenIdle: number | undefined;
  /** `syncSoon` came while records were queued: it runs once they landed. */
  #syncWanted = false;
  #durableWaiters: (() => void)[] = [];
  /** The lock's release off the thread (a writer opened with `openAsync`); none: `closeSoon` closes at once. */
  readonly #releaseAsync: (() => Promise<void>) | undefined;
  /** A `closeSoon` under way. */
  #closing: PendingClose | undefined;

  private constructor(
    path: string,
    fd: number,
    release: { sync: () => void; async?: () => Promise<void> },
    size: number,
    logger: Logger,
    opts: JsonlWriterOptions = {},
  ) {
    this.path = path;
    this.#fd = fd;
    this.#release = release.sync;
    this.#releaseAsync = release.async;
    this.#logger = logger;
    this.#writes = new OrderedWrites(fd, size, {
      pool: opts.pool === true,
      ...(opts.maxQueued !== undefined ? { maxQueued: opts.maxQueued } : {}),
      onLanded: () => (this.#dirty = true),
      onFailed: (err) =>
        logger.warn(`thread ${path}: writing a record failed (${codeOf(err)}); no later record is written to it`),
      onIdle: () => this.#writesIdle(),
    });
  }

  static open(path: string, opts: JsonlWriterOptions = {}): JsonlWriter {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const release = acquireLock(path);
    try {
      const fd = openSync(path, openFlags(opts.create), 0o600);
      chmodSync(path, 0o600);
      const logger = opts.logger ?? nullLogger;
      const size = repairTornTail(fd, fstatSync(fd).size, path, logger);
      return new JsonlWriter(path, fd, { sync: release }, size, logger);
    } catch (err) {
      release();
      throw err;
    }
  }

  /**
   * `open` without a synchronous file call (a session's new thread on the extension host): the lock, the open and
   * the torn-tail check run on the thread pool. Writes and `close()` stay synchronous, as for `open`.
   */
  static async openAsync(path: string, opts: JsonlWriterOptions = {}): Promise<JsonlWriter> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const lock = await tryAcquireLockAsync(path);
    if (!lock.ok) throw lockedError(path, lock.holder);
    let fd: number | undefined;
    try {
      fd = await openAsync(path, openFlags(opts.create), 0o600);
      await chmod(path, 0o600);
      const logger = opts.logger ?? nullLogger;
      const size = await repairTornTailAsync(fd, (await fstatAsync(fd)).size, path, logger);
      return new JsonlWriter(path, fd, { sync: lock.releaseSync, async: lock.release }, size, logger, opts);
    } catch (err) {
      if (fd !== undefined) await closeAsync(fd).catch(() => undefined);
      await lock.release();
      throw err;
    }
  }

  /** Bytes in the file once every record appended so far has landed (a queued one's range is taken at its append). */
  get size(): number {
    return this.#writes.size;
  }
  /** Bytes in the file now (`size` less the records still queued). */
  get written(): number {
    return this.#writes.written;
  }
  get closed(): boolean {
    return this.#fd === undefined;
  }

  /** Appends a record (written now, or queued: `pool`); `landed` hears it once it is in the file. */
  append(input: RecordInput | ThreadRecord, landed?: RecordsLanded): ThreadRecord {
    return this.appendMany([input], landed)[0]!;
  }

  appendMany(inputs: (RecordInput | ThreadRecord)[], landed?: RecordsLanded): ThreadRecord[] {
    const records = inputs.map((i) => ("v" in i ? i : stampRecord(i)));
    if (!records.length) return records;
    this.writeRaw(
      records.map(serializeRecord).join(""),
      landed &&
        ((start, end, err) => {
          if (!err) landed(records, start, end);
        }),
    );
    return records;
  }

  /** Appends JSON values of another record family (the edit ledger) as whole lines, in one write. */
  appendValues(values: readonly object[]): void {
    if (values.length) this.writeRaw(values.map((v) => JSON.stringify(v) + "\n").join(""));
  }

  /**
   * `append` with the write on the thread pool, whatever the writer's way (a metadata patch from the extension host's
   * thread). The record's byte range is taken at the call, so a record appended meanwhile lands after it, in call
   * order. Resolves once it landed (`landed` hears it first); the caller awaits it before closing the writer.
   */
  appendAsync(input: RecordInput, landed?: RecordsLanded): Promise<ThreadRecord> {
    const record = stampRecord(input);
    return new Promise((resolve, reject) =>
      this.writeRaw(
        serializeRecord(record),
        (start, end, err) => {
          if (err) return reject(err);
          landed?.([record], start, end);
          resolve(record);
        },
        true,
      ),
    );
  }

  private writeRaw(text: string, landed?: Landed, pool?: boolean): void {
    this.#requireFd();
    this.#writes.add(Buffer.from(text, "utf8"), landed, pool);
  }

  /**
   * Resolves once every record appended before the call is in the file (a reader of it up to `size` finds them);
   * rejects with the write's error that stopped them.
   */
  flushed(): Promise<void> {
    return this.#writes.flushed();
  }

  /** Durable barrier (turn end, metadata patch, close): the queued records written and fsynced on the caller's thread. */
  sync(): void {
    if (this.#fd === undefined) return;
    this.#writes.flushSync();
    if (!this.#dirty) return;
    fsyncSync(this.#fd);
    this.#dirty = false;
  }

  /** Makes what was written so far durable shortly: an fsync on the thread pool (see the top of this file). */
  syncSoon(): void {
    if (this.#fd === undefined) return;
    if (this.#writes.busy) {
      this.#syncWanted = true; // once the records queued so far landed
      return;
    }
    if (!this.#dirty) return;
    if (this.#inFlight) {
      this.#again = true;
      return;
    }
    const fd = this.#fd;
    this.#inFlight = true;
    this.#again = false;
    this.#dirty = false; // this fsync covers every write made before it starts
    fsync(fd, (err) => this.#fsynced(fd, err));
  }

  #fsyncFailed(err: unknown): void {
    this.#logger.warn(
      `thread ${this.path}: fsync failed (${codeOf(err)}); its last records may not survive a system crash`,
    );
  }

  #fsynced(_fd: number, err: NodeJS.ErrnoException | null): void {
    this.#inFlight = false;
    if (err) this.#fsyncFailed(err);
    if (this.#closeWhenIdle !== undefined) this.#closeIfIdle();
    else if (this.#again) {
      this.syncSoon();
      if (this.#inFlight) return;
    }
    for (const done of this.#durableWaiters.splice(0)) done();
  }

  /** The queued records landed (or failed): an fsync asked meanwhile runs now; a close waiting for them closes. */
  #writesIdle(): void {
    if (this.#syncWanted) {
      this.#syncWanted = false;
      this.syncSoon();
    }
    this.#closeIfIdle();
  }

  /** The fd of a closed writer closes once no fsync and no write is in flight on it any more. */
  #closeIfIdle(): void {
    const fd = this.#closeWhenIdle;
    if (fd === undefined || this.#inFlight || this.#writes.busy) return;
    this.#closeWhenIdle = undefined;
    close(fd, () => undefined);
  }

  /** Resolves once everything appended before the call is durable (an fsync on the thread pool, if one is needed). */
  async durable(): Promise<void> {
    await this.#writes.whenIdle();
    this.syncSoon();
    if (!this.#inFlight) return;
    return new Promise((resolve) => this.#durableWaiters.push(resolve));
  }

  close(): void {
    if (this.#fd === undefined) return;
    const fd = this.#fd;
    try {
      this.#writes.flushSync(); // the queued records, on this thread (the one in flight on the pool too)
      // durable on return, even with an fsync in flight (it may have started before the last writes)
      if (this.#dirty || this.#inFlight) fsyncSync(fd);
      this.#dirty = false;
    } finally {
      this.#fd = undefined;
      if (this.#inFlight || this.#writes.busy) this.#closeWhenIdle = fd;
      else closeSync(fd);
      this.#release();
    }
  }

  /**
   * `close()` without waiting on the caller's thread (see the top of this file). Resolves once the file is durable
   * (or its fsync failed, which is warned of), closed and unlocked; never rejects. Undefined when the writer was
   * opened synchronously: it closed at once, as `close()` does.
   */
  closeSoon(): Promise<void> | undefined {
    if (this.#closing) return this.#closing.done;
    if (this.#fd === undefined) return undefined;
    if (!this.#releaseAsync) {
      this.close();
      return undefined;
    }
    const queued = this.#writes.busy;
    const synced = !this.#dirty && !this.#inFlight && !queued; // nothing written since the last fsync ended
    const c: PendingClose = {
      fd: this.#fd,
      dirty: this.#dirty || queued,
      synced,
      releasing: false,
      unlocked: false,
      done: undefined!,
    };
    this.#fd = undefined; // writes are refused from now on
    this.#dirty = false;
    this.#closing = c;
    c.done = this.#finishSoon(c, this.#releaseAsync);
    return c.done;
  }

  async #finishSoon(c: PendingClose, releaseAsync: () => Promise<void>): Promise<void> {
    try {
      await this.#writes.whenIdle(); // the queued records land first (a failed write was warned of)
      // the fsync in flight covers every write made before it started; `dirty`: writes came after
      if (this.#inFlight) await new Promise<void>((resolve) => this.#durableWaiters.push(resolve));
      if (c.dirty && !c.synced) await fsyncAsync(c.fd).catch((err: unknown) => this.#fsyncFailed(err));
    } finally {
      c.synced = true; // from here on the fd may be closed: `finishClose` never touches it again
      await closeAsync(c.fd).catch(() => undefined);
      if (!c.releasing) {
        c.releasing = true;
        await releaseAsync().catch((err: unknown) =>
          this.#logger.warn(`thread ${this.path}: releasing its lock failed`, err),
        );
        c.unlocked = true;
      }
      c.finished = true;
    }
  }

  /** A `closeSoon` under way, until it resolved. */
  get closing(): Promise<void> | undefined {
    return this.#closing && !this.#closing.finished ? this.#closing.done : undefined;
  }

  /**
   * What a `closeSoon` under way has left, done on the caller's thread: durable and unlocked on return (true; the fd
   * closes on the thread pool). False when its asynchronous release has already started: the lock file may still be
   * there for a moment (`closing` resolves once it is gone).
   */
  finishClose(): boolean {
    const c = this.#closing;
    if (!c || c.unlocked) return true;
    if (!c.synced) {
      c.synced = true;
      try {
        // the fd is still open: the thread pool closes it only once `synced` was set there (and its writes ended)
        this.#writes.flushSync();
        fsyncSync(c.fd);
      } catch (err) {
        this.#fsyncFailed(err);
      }
    }
    if (c.releasing) return false;
    c.releasing = true;
    this.#release();
    c.unlocked = true;
    return true;
  }

  #requireFd(): number {
    if (this.#fd === undefined) throw new Error(`thread writer for ${this.path} is closed`);
    return this.#fd;
  }
}

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code ?? errorMessage(err);

interface PendingClose {
  fd: number;
  /** Written to since the last fsync started. */
  dirty: boolean;
  /** Durable (or its fsync failed): the fd is no longer fsynced here, and may be closed. */
  synced: boolean;
  /** The lock's release has started (synchronously or not). */
  releasing: boolean;
  /** The lock file is gone (or its release failed, which was warned of). */
  unlocked: boolean;
  /** Durable, closed and unlocked: nothing left to do. */
  finished?: boolean;
  done: Promise<void>;
}
