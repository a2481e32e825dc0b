/**
 * An append-only file written off the caller's thread: `write` queues the bytes and returns at once; one write at
 * a time goes out through a file handle (append mode, 0600, parent folders created). For hot paths (the traffic
 * recorder sees every JSON-RPC line of a busy agent) where `writeSync` would stall the extension host.
 *
 * - Bounded: past `maxPending` queued bytes, new data is dropped and counted; the next write that goes out starts
 *   with `dropNote(n)` (a line saying what was lost), so a slow disk costs lines, never memory.
 * - Size-capped with one rotation: once the file would grow past `rotateAt`, it is renamed to `rotatedPath(path)`
 *   (replacing the older one) and a new file starts.
 * - A failed write (full disk) stops the appender for good: `onError` hears it once, later writes are ignored.
 */
import { mkdir, open, rename, stat, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";

export interface AsyncAppenderOptions {
  /** Queued bytes beyond which new data is dropped (default 8 MiB). */
  maxPending?: number;
  /** Rotate once the file would grow past this many bytes (default: never). */
  rotateAt?: number;
  rotatedPath?: (path: string) => string;
  /** The line written in place of `n` dropped writes. */
  dropNote?: (n: number) => string;
  onError?: (err: unknown) => void;
  /**
   * Wait this long after the first queued write before writing (default 0: at once), so a stream of small writes
   * (a paced agent's lines, one per read) goes out as one write instead of one each. `flush` and `close` don't wait.
   */
  lingerMs?: number;
}

export const DEFAULT_MAX_PENDING = 8 * 1024 * 1024;

export class AsyncAppender {
  readonly #opts: AsyncAppenderOptions;
  /** Queued writes as given (strings become bytes once per drained batch, not one Buffer per write). */
  #queue: (string | Buffer)[] = [];
  /** The byte length of each queued write (with its newline). */
  #sizes: number[] = [];
  /** Whether each queued write is a line that gets a newline after it. */
  #lines: boolean[] = [];
  #pending = 0;
  #dropped = 0;
  /** Drops already noted in the file. */
  #noted = 0;
  #fh: FileHandle | undefined;
  /** Bytes in the current file (known once it is open). */
  #size = 0;
  #running: Promise<void> | undefined;
  #linger: NodeJS.Timeout | undefined;
  #closed = false;
  #failed = false;

  constructor(
    readonly path: string,
    opts: AsyncAppenderOptions = {},
  ) {
    this.#opts = opts;
  }

  /** Writes dropped so far because the queue was full. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Bytes queued and not written yet. */
  get pending(): number {
    return this.#pending;
  }

  /** Queues `data`; false when it was dropped (queue full, closed or failed). Never blocks. */
  write(data: string | Buffer): boolean {
    return this.#enqueue(data, false);
  }

  /** Queues `line` and a newline after it (without making `line + "\n"`, a copy of a long line); as `write`. */
  writeLine(line: string): boolean {
    return this.#enqueue(line, true);
  }

  #enqueue(data: string | Buffer, newline: boolean): boolean {
    if (this.#closed || this.#failed) return false;
    const bytes = (typeof data === "string" ? Buffer.byteLength(data, "utf8") : data.length) + (newline ? 1 : 0);
    if (this.#pending + bytes > (this.#opts.maxPending ?? DEFAULT_MAX_PENDING) && this.#pending > 0) {
      this.#dropped++;
      return false;
    }
    this.#queue.push(data);
    this.#sizes.push(bytes);
    this.#lines.push(newline);
    this.#pending += bytes;
    if (this.#running || this.#linger) return true;
    const linger = this.#opts.lingerMs ?? 0;
    if (linger > 0) this.#linger = setTimeout(() => this.#start(), linger);
    else this.#start();
    return true;
  }

  #start(): void {
    clearTimeout(this.#linger);
    this.#linger = undefined;
    this.#running ??= this.#drain().finally(() => (this.#running = undefined));
  }

  /** Resolves once everything queued so far is written (or the appender failed). */
  async flush(): Promise<void> {
    if (this.#linger) this.#start();
    while (this.#running) await this.#running;
  }

  /** Writes what is queued, then closes the file. Later writes are ignored. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
    const fh = this.#fh;
    this.#fh = undefined;
    await fh?.close().catch(() => undefined);
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length && !this.#failed) {
        const batch = this.#take();
        const dropped = this.#dropped - this.#noted;
        const note = dropped > 0 && this.#opts.dropNote ? Buffer.from(this.#opts.dropNote(dropped), "utf8") : null;
        this.#noted += dropped;
        const out = note ? Buffer.concat([note, batch]) : batch;
        const fh = await this.#file(out.length);
        let off = 0;
        while (off < out.length) off += (await fh.write(out, off, out.length - off)).bytesWritten;
        this.#size += out.length;
      }
    } catch (err) {
      this.#failed = true;
      this.#queue = [];
      this.#sizes = [];
      this.#lines = [];
      this.#pending = 0;
      await this.#fh?.close().catch(() => undefined);
      this.#fh = undefined;
      this.#opts.onError?.(err);
    }
  }

  /** The queued writes that fit before the next rotation (at least one), joined. */
  #take(): Buffer {
    const cap = this.#opts.rotateAt;
    let count = 0;
    let n = 0;
    while (count < this.#queue.length) {
      const bytes = this.#sizes[count]!;
      if (count && cap !== undefined && this.#size + n + bytes > cap) break;
      n += bytes;
      count++;
    }
    const parts = this.#queue.splice(0, count);
    this.#sizes.splice(0, count);
    const lines = this.#lines.splice(0, count);
    this.#pending -= n;
    if (count === 1 && !lines[0] && typeof parts[0] !== "string") return parts[0]!;
    // one buffer for the batch, each part encoded straight into it (no joined string, no Buffer per part)
    const out = Buffer.allocUnsafe(n);
    let off = 0;
    parts.forEach((p, i) => {
      off += typeof p === "string" ? out.write(p, off, "utf8") : p.copy(out, off);
      if (lines[i]) out[off++] = 0x0a;
    });
    return out;
  }

  /** The open file, rotated first when `bytes` more would pass the cap. */
  async #file(bytes: number): Promise<FileHandle> {
    if (!this.#fh) {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      this.#fh = await open(this.path, "a", 0o600);
      this.#size = (await stat(this.path)).size;
    }
    const cap = this.#opts.rotateAt;
    if (cap !== undefined && this.#size > 0 && this.#size + bytes > cap && this.#opts.rotatedPath) {
      await this.#fh.close();
      this.#fh = undefined;
      await rename(this.path, this.#opts.rotatedPath(this.path));
      this.#fh = await open(this.path, "a", 0o600);
      this.#size = 0;
    }
    return this.#fh;
  }
}
