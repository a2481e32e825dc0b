/**
 * Bounded output of one run: the shared HeadTailBuffer (src/core/head-tail-buffer.ts) keeps the first `headBytes`
 * and the last `tailBytes`; bytes in between are reported as a gap by `readSlice`.
 */
import { HeadTailBuffer } from "../head-tail-buffer";
import { utf8CompleteLength } from "../utf8";
import type { OutputSlice } from "./types";

export { HeadTailBuffer };

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
