/**
 * Append-only JSONL writer, one per file (advisory pid lock). Each record is one `write` of a whole line;
 * `sync()` (fsync) is called by the owner at turn boundaries, not per chunk. Reopening a file whose last
 * line is torn truncates that partial line first, so new records never glue onto garbage.
 */
import {
  chmodSync,
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { nullLogger, type Logger } from "../log";
import { acquireLock } from "./file-lock";
import { serializeRecord, stampRecord, type RecordInput, type ThreadRecord } from "../model/records";

export interface JsonlWriterOptions {
  logger?: Logger;
  /** Create the file if missing (default true). */
  create?: boolean;
}

export class JsonlWriter {
  readonly path: string;
  #fd: number | undefined;
  #release: () => void;
  #size: number;
  #dirty = false;

  private constructor(path: string, fd: number, release: () => void, size: number) {
    this.path = path;
    this.#fd = fd;
    this.#release = release;
    this.#size = size;
  }

  static open(path: string, opts: JsonlWriterOptions = {}): JsonlWriter {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const release = acquireLock(path);
    try {
      const fd = openSync(path, opts.create === false ? "r+" : "a+", 0o600);
      chmodSync(path, 0o600);
      const size = repairTornTail(fd, path, opts.logger ?? nullLogger);
      return new JsonlWriter(path, fd, release, size);
    } catch (err) {
      release();
      throw err;
    }
  }

  get size(): number {
    return this.#size;
  }
  get closed(): boolean {
    return this.#fd === undefined;
  }

  append(input: RecordInput | ThreadRecord): ThreadRecord {
    const record = "v" in input ? input : stampRecord(input);
    this.writeRaw(serializeRecord(record));
    return record;
  }

  appendMany(inputs: (RecordInput | ThreadRecord)[]): ThreadRecord[] {
    const records = inputs.map((i) => ("v" in i ? i : stampRecord(i)));
    if (records.length) this.writeRaw(records.map(serializeRecord).join(""));
    return records;
  }

  /** Appends JSON values of another record family (the edit ledger) as whole lines, in one write. */
  appendValues(values: readonly object[]): void {
    if (values.length) this.writeRaw(values.map((v) => JSON.stringify(v) + "\n").join(""));
  }

  private writeRaw(text: string): void {
    const fd = this.#requireFd();
    const buf = Buffer.from(text, "utf8");
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off, this.#size + off);
    this.#size += buf.length;
    this.#dirty = true;
  }

  /** Durable barrier (turn end, metadata patch, close). */
  sync(): void {
    if (this.#fd === undefined || !this.#dirty) return;
    fsyncSync(this.#fd);
    this.#dirty = false;
  }

  close(): void {
    if (this.#fd === undefined) return;
    try {
      this.sync();
    } finally {
      closeSync(this.#fd);
      this.#fd = undefined;
      this.#release();
    }
  }

  #requireFd(): number {
    if (this.#fd === undefined) throw new Error(`thread writer for ${this.path} is closed`);
    return this.#fd;
  }
}

/** Truncates a trailing partial line; returns the resulting size. */
function repairTornTail(fd: number, path: string, logger: Logger): number {
  const size = fstatSync(fd).size;
  if (size === 0) return 0;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] === 0x0a) return size;
  // walk back in blocks to the last newline
  const block = Buffer.allocUnsafe(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - block.length);
    const n = readSync(fd, block, 0, end - start, start);
    const nl = block.subarray(0, n).lastIndexOf(0x0a);
    if (nl >= 0) {
      const keep = start + nl + 1;
      logger.warn(`thread ${path}: dropped a torn last line (${size - keep} bytes) left by an interrupted writer`);
      ftruncateSync(fd, keep);
      return keep;
    }
    end = start;
  }
  logger.warn(`thread ${path}: the only line was torn (${size} bytes); starting it afresh`);
  ftruncateSync(fd, 0);
  return 0;
}
