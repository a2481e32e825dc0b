/**
 * The one bounded output buffer of the engine (agent terminals and exec runs): the first `headBytes` and the last
 * `tailBytes` of a byte stream plus the total count. Appends copy only the new bytes into a ring (no re-copy of
 * what is kept), so memory never exceeds head + tail and the cost of an append is the size of the chunk.
 * Bytes between head and tail are dropped (readers report them as a gap).
 */
export class HeadTailBuffer {
  readonly headBytes: number;
  readonly tailBytes: number;
  #head: Buffer;
  #headLength = 0;
  #ring: Buffer | undefined;
  #total = 0;

  constructor(headBytes: number, tailBytes: number) {
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
  /** Bytes of memory the buffer holds now (grows with the output up to head + tail). */
  get allocated(): number {
    return this.#head.length + (this.#ring?.length ?? 0);
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
    // Only the last tailBytes of a huge chunk can survive; skip the rest without copying it.
    if (data.length > this.tailBytes) {
      this.#total += data.length - this.tailBytes;
      data = data.subarray(data.length - this.tailBytes);
    }
    const ring = this.#growRing(this.#total - this.headBytes + data.length);
    let pos = (this.#total - this.headBytes) % this.tailBytes;
    let written = 0;
    while (written < data.length) {
      const n = Math.min(data.length - written, this.tailBytes - pos);
      data.copy(ring, pos, written, written + n);
      written += n;
      pos = 0;
    }
    this.#total += data.length;
  }

  /**
   * The ring grows in steps up to `tailBytes` (a terminal printing one line does not hold 1 MiB). It only grows
   * before the first wrap, while the kept tail is `[0, used)` of the ring, so positions stay valid.
   */
  #growRing(needed: number): Buffer {
    const have = this.#ring?.length ?? 0;
    if (this.#ring && (have >= this.tailBytes || have >= needed)) return this.#ring;
    const size = Math.min(this.tailBytes, Math.max(needed, have * 2, 4096));
    const grown = Buffer.alloc(size);
    this.#ring?.copy(grown, 0, 0, Math.min(have, Math.max(0, this.#total - this.headBytes)));
    this.#ring = grown;
    return grown;
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
