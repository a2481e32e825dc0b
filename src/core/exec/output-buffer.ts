/**
 * Bounded output of one run: the first `headBytes` and the last `tailBytes` of the stream, plus the total count.
 * Memory never exceeds head + tail however much the command prints; bytes in between are reported as a gap.
 */
import { utf8CompleteLength } from "../utf8";
import { DEFAULT_HEAD_BYTES, DEFAULT_TAIL_BYTES, type OutputSlice } from "./types";

/** Anything that can serve byte ranges of a run's output (memory buffer or the on-disk log). */
export interface OutputSource {
  readonly total: number;
  /** Bytes kept at the start of the stream (`[0, headLength)`). */
  readonly headLength: number;
  /** First byte offset still held by the tail. */
  readonly tailStart: number;
  /** Copies up to `max` kept bytes starting exactly at `offset` (which must be kept). */
  copy(offset: number, max: number): Buffer;
}

export class HeadTailBuffer implements OutputSource {
  readonly headBytes: number;
  readonly tailBytes: number;
  #head: Buffer;
  #headLength = 0;
  #ring: Buffer | undefined;
  #total = 0;

  constructor(headBytes = DEFAULT_HEAD_BYTES, tailBytes = DEFAULT_TAIL_BYTES) {
    if (headBytes < 0 || tailBytes < 1) throw new RangeError("head must be >= 0 and tail >= 1 bytes");
    this.headBytes = headBytes;
    this.tailBytes = tailBytes;
    this.#head = Buffer.alloc(0);
  }

  get total(): number {
    return this.#total;
  }
  get headLength(): number {
    return this.#headLength;
  }
  get tailStart(): number {
    return Math.min(this.#total, Math.max(this.headBytes, this.#total - this.tailBytes));
  }

  append(chunk: Buffer): void {
    let data = chunk;
    if (this.#headLength < this.headBytes) {
      const take = Math.min(this.headBytes - this.#headLength, data.length);
      if (this.#head.length < this.#headLength + take) {
        // Grow the head in steps so a run printing one line does not hold 64 KiB.
        const size = Math.min(this.headBytes, Math.max(this.#headLength + take, this.#head.length * 2, 4096));
        const grown = Buffer.alloc(size);
        this.#head.copy(grown, 0, 0, this.#headLength);
        this.#head = grown;
      }
      data.copy(this.#head, this.#headLength, 0, take);
      this.#headLength += take;
      this.#total += take;
      data = data.subarray(take);
    }
    if (data.length === 0) return;
    this.#ring ??= Buffer.alloc(this.tailBytes);
    // Only the last tailBytes of a huge chunk can survive; skip the rest without copying it.
    if (data.length > this.tailBytes) {
      this.#total += data.length - this.tailBytes;
      data = data.subarray(data.length - this.tailBytes);
    }
    let pos = (this.#total - this.headBytes) % this.tailBytes;
    let written = 0;
    while (written < data.length) {
      const n = Math.min(data.length - written, this.tailBytes - pos);
      data.copy(this.#ring, pos, written, written + n);
      written += n;
      pos = 0;
    }
    this.#total += data.length;
  }

  copy(offset: number, max: number): Buffer {
    if (offset < this.#headLength) {
      return Buffer.from(this.#head.subarray(offset, Math.min(this.#headLength, offset + max)));
    }
    if (!this.#ring || offset < this.tailStart || offset >= this.#total) return Buffer.alloc(0);
    const length = Math.min(max, this.#total - offset);
    const out = Buffer.alloc(length);
    let pos = (offset - this.headBytes) % this.tailBytes;
    let done = 0;
    while (done < length) {
      const n = Math.min(length - done, this.tailBytes - pos);
      this.#ring.copy(out, done, pos, pos + n);
      done += n;
      pos = 0;
    }
    return out;
  }
}

/** Memory held by a buffer (for benches and sanity checks). */
export function bufferFootprint(buffer: HeadTailBuffer): number {
  return buffer.headBytes + (buffer.total > buffer.headBytes ? buffer.tailBytes : 0);
}

/**
 * Reads up to `maxBytes` from `source` at `cursor`, skipping a dropped middle (reported as `gap`). The text ends on
 * a whole UTF-8 character unless `final` (the run ended), so cursors stay byte offsets and never split a character.
 */
export function readSlice(source: OutputSource, cursor: number, maxBytes: number, final: boolean): OutputSlice {
  const total = source.total;
  let start = Math.max(0, Math.min(cursor, total));
  let gap: OutputSlice["gap"];
  if (start >= source.headLength && start < source.tailStart) {
    gap = { from: start, to: source.tailStart };
    start = source.tailStart;
  }
  let bytes = source.copy(start, maxBytes);
  const headEnd = source.headLength;
  if (start < headEnd && start + bytes.length === headEnd && source.tailStart === headEnd && bytes.length < maxBytes) {
    // Head and tail are contiguous (nothing dropped yet): continue into the tail in the same read.
    bytes = Buffer.concat([bytes, source.copy(headEnd, maxBytes - bytes.length)]);
  }
  if (gap) {
    // After a gap the first bytes may be the middle of a character: drop continuation bytes.
    let skip = 0;
    while (skip < bytes.length && skip < 3 && (bytes[skip]! & 0xc0) === 0x80) skip += 1;
    bytes = bytes.subarray(skip);
    start += skip;
  }
  const end = start + bytes.length;
  // A character cut by the dropped middle can never be completed; anything else may still be.
  const gapFollows = end === headEnd && source.tailStart > end && end < total;
  if (!gapFollows && !(final && end >= total)) bytes = bytes.subarray(0, utf8CompleteLength(bytes));
  return { cursor, start, next: start + bytes.length, text: bytes.toString("utf8"), gap, total };
}
