/**
 * A file's appends in call order (JsonlWriter's): each one's byte range is taken when it is added, so order is call
 * order. On the thread pool (`pool`: the extension host's writers) the queued bytes go out one `write` at a time,
 * each batch after the one before it has landed: the file only ever grows by a prefix of what was added, so a reader
 * (the panel's tail, a follower, the host's feed) sees whole records and at most a torn last line, never a hole.
 * Otherwise (the CLI's) each add is written at once with `writeSync`, as before.
 *
 * - `landed` of an add is called once its bytes are in the file (at once when written synchronously), in order.
 * - Bounded: past `maxQueued` bytes not yet written, the queue is written on the caller's thread (`flushSync`), so
 *   a slow disk costs the old synchronous wait, never memory.
 * - `flushSync` (a synchronous close, `sync()`, a reopen or exit that must finish a close) writes every queued add,
 *   the one in flight on the pool too (the same bytes at the same offset: when the pool's write ends, it changed
 *   nothing).
 * - A failed write on the pool stops the queue for good (`failed`): its adds and every later one are refused, so
 *   nothing lands past a hole; the error goes to `onFailed` and to whoever waits (`flushed`, the add's `landed`).
 *   A synchronous writer's failed write gives its range back (the next write goes where it was), as before.
 */
import { constants, write, writeSync } from "node:fs";
import { background, onUnexpectedError } from "../util/unexpected";

/** `write` on the thread pool, looked up when called (not bound once), as JsonlWriter's fsync. */
const writeAsync = (fd: number, buf: Buffer, off: number, len: number, pos: number) =>
  new Promise<number>((resolve, reject) => write(fd, buf, off, len, pos, (err, n) => (err ? reject(err) : resolve(n))));

/**
 * Read-write, created if missing, and not O_APPEND: every record is written at its own offset (Linux's pwrite on an
 * O_APPEND fd appends whatever the offset), so writing a record again where it goes (a queued one written on the
 * caller's thread while the pool's write of it is still in flight) changes nothing.
 */
export const openFlags = (create?: boolean) => (create === false ? "r+" : constants.O_RDWR | constants.O_CREAT);

/** Queued bytes past which an add is written on the caller's thread (with everything queued before it). */
export const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

/** An add landed (its bytes are in the file at `start`..`end`), or failed (`err`: they never will). */
export type Landed = (start: number, end: number, err?: Error) => void;

interface Entry {
  buf: Buffer;
  start: number;
  landed: Landed | undefined;
  /** Written (by the pool or synchronously): a pool write ending later finds it so and leaves it. */
  done: boolean;
}

export interface OrderedWritesOptions {
  /** Adds go out on the thread pool (else synchronously at each add). */
  pool: boolean;
  maxQueued?: number;
  /** Bytes landed: the file holds everything up to `end`. */
  onLanded(end: number): void;
  /** A write on the pool failed: the queue is stopped. */
  onFailed(err: Error): void;
  /** Nothing queued and no write in flight on the pool any more. */
  onIdle(): void;
}

export class OrderedWrites {
  #size: number;
  #written: number;
  #queue: Entry[] = [];
  #queued = 0;
  /** A write on the pool is in flight (its fd must stay open until it ends). */
  #writing = false;
  #failed: Error | undefined;
  #waiters: { upTo: number; resolve: () => void; reject: (err: Error) => void }[] = [];
  #idle: (() => void)[] = [];

  constructor(
    private readonly fd: number,
    size: number,
    private readonly opts: OrderedWritesOptions,
  ) {
    this.#size = size;
    this.#written = size;
  }

  /** Bytes taken: everything added so far, landed or not. */
  get size(): number {
    return this.#size;
  }
  /** Bytes in the file. */
  get written(): number {
    return this.#written;
  }
  /** Adds not landed yet, or a write still in flight on the pool. */
  get busy(): boolean {
    return this.#queue.length > 0 || this.#writing;
  }
  /** The pool's write that failed: no add is taken since. */
  get failed(): Error | undefined {
    return this.#failed;
  }

  /**
   * Takes `buf`'s range now and writes it (on the pool, or at once). `pool` overrides the writer's way for this add
   * (an async append on a synchronous writer). Throws the queue's failure, and a synchronous write's error.
   */
  add(buf: Buffer, landed?: Landed, pool = this.opts.pool): void {
    if (this.#failed) throw this.#failed;
    this.#queue.push({ buf, start: this.#size, landed, done: false });
    this.#size += buf.length;
    this.#queued += buf.length;
    if (!pool || this.#queued > (this.opts.maxQueued ?? MAX_QUEUED_BYTES)) this.flushSync();
    else this.#kick();
  }

  /** Writes every add not landed yet on the caller's thread, in order; they have landed on return. */
  flushSync(): void {
    const entries = this.#queue;
    if (!entries.length) return;
    let i = 0;
    try {
      for (; i < entries.length; i++) {
        const { buf, start } = entries[i]!;
        let off = 0;
        while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off, start + off);
      }
    } catch (err) {
      this.#take(i);
      if (this.opts.pool) this.#fail(err as Error);
      else this.#giveBack(err as Error);
      throw err;
    }
    this.#take(entries.length);
  }

  /** Resolves once every add made before the call has landed; rejects with the failure that stopped them. */
  flushed(): Promise<void> {
    if (this.#failed) return Promise.reject(this.#failed);
    if (!this.#queue.length) return Promise.resolve();
    const upTo = this.#size;
    return new Promise((resolve, reject) => this.#waiters.push({ upTo, resolve, reject }));
  }

  /** Resolves once nothing is queued and no write is in flight (landed or failed); never rejects. */
  whenIdle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #kick(): void {
    if (this.#writing || this.#failed || !this.#queue.length) return;
    this.#writing = true;
    background(this.#drain(), "writing a thread's records");
  }

  async #drain(): Promise<void> {
    while (this.#queue.length && !this.#failed) {
      const batch = this.#queue.slice();
      const first = batch[0]!;
      const buf = batch.length === 1 ? first.buf : Buffer.concat(batch.map((e) => e.buf));
      try {
        let off = 0;
        while (off < buf.length) off += await writeAsync(this.fd, buf, off, buf.length - off, first.start + off);
      } catch (err) {
        // written synchronously meanwhile (flushSync): this write's error changed nothing
        if (first.done) continue;
        if (this.opts.pool) this.#fail(err as Error);
        else this.#giveBack(err as Error); // an appendAsync on a synchronous writer: nothing was taken after it
        continue;
      }
      if (!first.done) this.#take(batch.length);
    }
    this.#writing = false;
    for (const done of this.#idle.splice(0)) done();
    this.opts.onIdle();
  }

  /** The first `n` queued adds have landed. */
  #take(n: number): void {
    const landed = this.#queue.splice(0, n);
    if (!landed.length) return;
    for (const e of landed) {
      e.done = true;
      this.#queued -= e.buf.length;
    }
    const last = landed[landed.length - 1]!;
    this.#written = last.start + last.buf.length;
    this.opts.onLanded(this.#written);
    for (const e of landed) this.#tell(e);
    this.#waiters = this.#waiters.filter((w) => (w.upTo <= this.#written ? (w.resolve(), false) : true));
    if (!this.busy) for (const done of this.#idle.splice(0)) done();
  }

  /**
   * An add's `landed`: a listener that throws is reported, and the queue goes on (the pool's drain must not stop on
   * it); written synchronously, it throws to the caller of the add, as a listener in a synchronous append did.
   */
  #tell(e: Entry, err?: Error): void {
    if (!this.#writing) return e.landed?.(e.start, e.start + e.buf.length, err);
    try {
      e.landed?.(e.start, e.start + e.buf.length, err);
    } catch (thrown) {
      onUnexpectedError("telling of a thread's records", thrown);
    }
  }

  /** What is queued never lands: the queue stops (a later add would sit past a hole). */
  #fail(err: Error): void {
    this.#failed = err;
    this.#drop(err);
    this.opts.onFailed(err);
  }

  /** A synchronous writer's failed write: its range and those after it are given back (nothing was past them). */
  #giveBack(err: Error): void {
    this.#drop(err);
    this.#size = this.#written;
  }

  #drop(err: Error): void {
    const dropped = this.#queue.splice(0);
    for (const e of dropped) {
      e.done = true;
      this.#tell(e, err);
    }
    this.#queued = 0;
    for (const w of this.#waiters.splice(0)) w.reject(err);
    if (!this.busy) for (const done of this.#idle.splice(0)) done();
  }
}
