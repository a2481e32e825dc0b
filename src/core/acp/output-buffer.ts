/**
 * Terminal output kept for `terminal/output`, capped at `outputByteLimit` bytes: the shared ring buffer
 * (src/core/head-tail-buffer.ts, no head, a tail of the limit), so an append costs the size of the chunk however
 * long the command runs. When over the cap the oldest bytes go first, and the kept text starts at the next UTF-8
 * character boundary so it never begins with half a character (ACP `terminals` spec).
 */
import { HeadTailBuffer } from "../head-tail-buffer";
import { utf8CompleteLength } from "../utf8";

export const DEFAULT_OUTPUT_BYTE_LIMIT = 1024 * 1024;

export class OutputBuffer {
  readonly #limit: number;
  readonly #ring: HeadTailBuffer;

  constructor(limit: number = DEFAULT_OUTPUT_BYTE_LIMIT) {
    this.#limit = Math.max(0, limit);
    this.#ring = new HeadTailBuffer(0, Math.max(1, this.#limit));
  }

  /** The cap given at creation (bytes). */
  get limit(): number {
    return this.#limit;
  }

  /** Bytes of memory held now (grows with the output up to the limit). */
  get allocated(): number {
    return this.#ring.allocated;
  }

  get truncated(): boolean {
    return this.#ring.total > this.#limit;
  }

  /** Bytes kept (after the cut to a character boundary). */
  get byteLength(): number {
    return this.#kept().length;
  }

  append(data: string | Buffer): void {
    const chunk = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    if (chunk.length > 0) this.#ring.append(chunk);
  }

  /** The kept output; an incomplete character at the very end (mid-stream) is left out until it completes. */
  text(): string {
    const kept = this.#kept();
    return kept.toString("utf8", 0, utf8CompleteLength(kept));
  }

  #kept(): Buffer {
    if (this.#limit === 0) return Buffer.alloc(0);
    const start = this.#ring.tailStart;
    const bytes = this.#ring.copy(start, this.#limit);
    if (start === 0) return bytes;
    // The oldest bytes were dropped: skip continuation bytes (10xxxxxx) of a character whose first byte went.
    let cut = 0;
    while (cut < bytes.length && (bytes[cut]! & 0xc0) === 0x80) cut++;
    return bytes.subarray(cut);
  }
}
