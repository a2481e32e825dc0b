/**
 * Two connected ends of an in-process connection to the thread host (server.ts `connect`): what one end writes the
 * other reads, as over the host's socket, with a socket's flow control. A chunk written is delivered on a later
 * turn of the event loop (never inside the writer's call, as a socket's data never is), and its write completes
 * only once the reader's buffer has room: an end whose reader does not read (paused, as a slow client's is) holds
 * what is written to it in the writer's `writableLength`, so the host sees a slow in-process client fall behind and
 * lets it go exactly as it does a socket's. Ending one end ends the other's reading (after what was delivered);
 * destroying one ends the other's reading and fails its writes, as a closed socket does.
 */
import { Duplex } from "node:stream";

class End extends Duplex {
  other!: End;
  /** The other end's write, held until this end's reader wants more. */
  #held: ((err?: Error | null) => void) | undefined;
  #eof = false;

  constructor() {
    super({ allowHalfOpen: false });
  }

  /** Data from the other end; false once this end's reader has enough buffered (the write waits for `_read`). */
  #take(data: Buffer, done: (err?: Error | null) => void): void {
    if (this.destroyed || this.#eof) return done(new Error("the other end of the in-process connection is closed"));
    if (this.push(data)) done();
    else this.#held = done;
  }

  /** No more data comes from the other end. */
  #end(): void {
    if (this.#eof || this.destroyed) return;
    this.#eof = true;
    this.push(null);
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, cb: (err?: Error | null) => void): void {
    const data = chunks.length === 1 ? chunks[0]!.chunk : Buffer.concat(chunks.map((c) => c.chunk));
    setImmediate(() => this.other.#take(data, cb));
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this._writev([{ chunk }], cb);
  }

  override _read(): void {
    const held = this.#held;
    this.#held = undefined;
    held?.();
  }

  override _final(cb: (err?: Error | null) => void): void {
    setImmediate(() => {
      this.other.#end();
      cb();
    });
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    // a write of the other end waiting on this reader fails; the other end reads what it has, then its end
    const held = this.#held;
    this.#held = undefined;
    this.other.#held = undefined; // this end's own write waiting on the other's reader: nobody waits for it now
    this.#eof = true;
    setImmediate(() => {
      held?.(new Error("the other end of the in-process connection is closed"));
      this.other.#end();
    });
    cb(err);
  }
}

/** A connected pair: [the host's end, the client's end]. */
export function inProcessPair(): [Duplex, Duplex] {
  const a = new End();
  const b = new End();
  a.other = b;
  b.other = a;
  return [a, b];
}
