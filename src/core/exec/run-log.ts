/**
 * A run's output on disk, bounded like the memory buffer, so another process (`acp-threads logs`) can read it:
 *   `<id>.head.log`          the first headBytes of the stream,
 *   `<id>.<offset>.tail.log` tail segments of tailBytes/2 each, named by the byte offset they start at.
 * Only the newest two segments are kept, so the file tail holds between tailBytes/2 and tailBytes of the latest
 * output and the disk use never exceeds head + tail. Readers tolerate a segment deleted under them (a gap).
 */
import { closeSync, openSync, readdirSync, readSync, rmSync, statSync, writeSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { OutputSource } from "./output-buffer";

const SEGMENT_RE = /^(.+)\.(\d+)\.tail\.log$/;

export class RunLogWriter {
  readonly #dir: string;
  readonly #id: string;
  readonly #headBytes: number;
  readonly #segmentBytes: number;
  #headFd: number | undefined;
  #headLength = 0;
  #segFd: number | undefined;
  #segStart = -1;
  #segLength = 0;
  #previousSeg: string | undefined;
  #total = 0;
  #closed = false;

  constructor(dir: string, id: string, headBytes: number, tailBytes: number) {
    this.#dir = dir;
    this.#id = id;
    this.#headBytes = headBytes;
    this.#segmentBytes = Math.max(1, Math.ceil(tailBytes / 2));
    this.#headFd = openSync(join(dir, `${id}.head.log`), "w", 0o600);
  }

  get total(): number {
    return this.#total;
  }

  append(chunk: Buffer): void {
    if (this.#closed) return; // output after the exit was recorded: the memory buffer still has it
    let data = chunk;
    if (this.#headLength < this.#headBytes) {
      const take = Math.min(this.#headBytes - this.#headLength, data.length);
      writeAll(this.#headFd!, data.subarray(0, take));
      this.#headLength += take;
      this.#total += take;
      data = data.subarray(take);
    }
    // A chunk larger than two segments only leaves its end behind: skip what rotation would delete anyway.
    const keep = this.#segmentBytes * 2;
    if (data.length > keep) {
      const skip = data.length - keep;
      const alignedSkip = skip - ((this.#total + skip - this.#headBytes) % this.#segmentBytes);
      if (alignedSkip > 0) {
        this.#total += alignedSkip;
        data = data.subarray(alignedSkip);
      }
    }
    while (data.length > 0) {
      const segIndex = Math.floor((this.#total - this.#headBytes) / this.#segmentBytes);
      const segStart = this.#headBytes + segIndex * this.#segmentBytes;
      if (segStart !== this.#segStart) this.#rotate(segStart);
      const n = Math.min(data.length, segStart + this.#segmentBytes - this.#total);
      writeAll(this.#segFd!, data.subarray(0, n));
      this.#segLength += n;
      this.#total += n;
      data = data.subarray(n);
    }
  }

  #rotate(segStart: number): void {
    const name = `${this.#id}.${segStart}.tail.log`;
    if (this.#segFd !== undefined) closeSync(this.#segFd);
    const current = this.#segStart >= 0 ? `${this.#id}.${this.#segStart}.tail.log` : undefined;
    // The current segment becomes the previous one; the one before that falls out of the window.
    if (this.#previousSeg) rmSync(join(this.#dir, this.#previousSeg), { force: true });
    // Keep the current segment only if the new one follows it seamlessly; after a skipped huge chunk it is stale.
    const seamless = segStart === this.#segStart + this.#segmentBytes && this.#segLength === this.#segmentBytes;
    this.#previousSeg = current && seamless ? current : undefined;
    if (current && !this.#previousSeg) rmSync(join(this.#dir, current), { force: true });
    this.#segFd = openSync(join(this.#dir, name), "w", 0o600);
    this.#segStart = segStart;
    this.#segLength = 0;
  }

  close(): void {
    this.#closed = true;
    if (this.#headFd !== undefined) closeSync(this.#headFd);
    if (this.#segFd !== undefined) closeSync(this.#segFd);
    this.#headFd = undefined;
    this.#segFd = undefined;
  }
}

function writeAll(fd: number, data: Buffer): void {
  let done = 0;
  while (done < data.length) done += writeSync(fd, data, done, data.length - done);
}

interface Segment {
  start: number;
  length: number;
  path: string;
}

/** A snapshot of a run's on-disk output, read by any process. */
export class RunLogReader implements OutputSource {
  readonly total: number;
  readonly headLength: number;
  readonly tailStart: number;
  readonly #headPath: string;
  readonly #segments: Segment[];

  constructor(dir: string, id: string) {
    this.#headPath = join(dir, `${id}.head.log`);
    this.headLength = fileSize(this.#headPath);
    const segments: Segment[] = [];
    for (const name of listDir(dir)) {
      const m = SEGMENT_RE.exec(name);
      if (!m || m[1] !== id) continue;
      const path = join(dir, name);
      segments.push({ start: Number(m[2]), length: fileSize(path), path });
    }
    segments.sort((a, b) => a.start - b.start);
    this.#segments = segments;
    const last = segments.at(-1);
    this.total = last ? last.start + last.length : this.headLength;
    this.tailStart = segments[0]?.start ?? this.total;
  }

  copy(offset: number, max: number): Buffer {
    if (offset < this.headLength) return readRange(this.#headPath, offset, Math.min(max, this.headLength - offset));
    const out: Buffer[] = [];
    let pos = offset;
    let left = max;
    for (const seg of this.#segments) {
      if (left <= 0 || pos < seg.start) break;
      if (pos >= seg.start + seg.length) continue;
      const chunk = readRange(seg.path, pos - seg.start, Math.min(left, seg.start + seg.length - pos));
      if (chunk.length === 0) break; // deleted under us: stop at the gap
      out.push(chunk);
      pos += chunk.length;
      left -= chunk.length;
    }
    return Buffer.concat(out);
  }
}

/** Removes every log file of a run. */
export function removeRunLogs(dir: string, id: string): void {
  for (const name of listDir(dir)) if (isLogOf(name, id)) rmSync(join(dir, name), { force: true });
}

/** `removeRunLogs` without a synchronous file call. */
export async function removeRunLogsAsync(dir: string, id: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => []))
    if (isLogOf(name, id)) await rm(join(dir, name), { force: true });
}

const isLogOf = (name: string, id: string) => name === `${id}.head.log` || SEGMENT_RE.exec(name)?.[1] === id;

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function readRange(path: string, position: number, length: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return Buffer.alloc(0);
  }
  try {
    const buf = Buffer.alloc(length);
    const n = readSync(fd, buf, 0, length, position);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}
