/**
 * BASELINE ONLY (bench/buffers.main.ts): the agent-terminal output buffer used before #15 (it copied the whole kept
 * buffer on every append once full), kept verbatim so the bench measures the shared ring buffer against it.
 *
 * Terminal output kept for `terminal/output`, capped at `outputByteLimit` bytes. When over the cap the
 * oldest bytes go first, and the cut moves forward to a UTF-8 character boundary so the text never starts
 * with half a character (ACP `terminals` spec).
 */
import { utf8CompleteLength } from "../../src/core/utf8";

export const DEFAULT_OUTPUT_BYTE_LIMIT = 1024 * 1024;

export class OutputBuffer {
  readonly #limit: number;
  #chunks: Buffer[] = [];
  #bytes = 0;
  #truncated = false;

  constructor(limit: number = DEFAULT_OUTPUT_BYTE_LIMIT) {
    this.#limit = Math.max(0, limit);
  }

  get truncated(): boolean {
    return this.#truncated;
  }

  get byteLength(): number {
    return this.#bytes;
  }

  append(data: string | Buffer): void {
    const chunk = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    if (chunk.length === 0) return;
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    if (this.#bytes > this.#limit) this.#trim();
  }

  /** The kept output; an incomplete character at the very end (mid-stream) is left out until it completes. */
  text(): string {
    const all = this.#joined();
    return all.toString("utf8", 0, utf8CompleteLength(all));
  }

  #joined(): Buffer {
    if (this.#chunks.length > 1) this.#chunks = [Buffer.concat(this.#chunks)];
    return this.#chunks[0] ?? Buffer.alloc(0);
  }

  #trim(): void {
    const all = this.#joined();
    let cut = all.length - this.#limit;
    // Skip continuation bytes (10xxxxxx): they belong to a character whose first byte was dropped.
    while (cut < all.length && (all[cut] & 0xc0) === 0x80) cut++;
    this.#chunks = [Buffer.from(all.subarray(cut))];
    this.#bytes = this.#chunks[0].length;
    this.#truncated = true;
  }
}
