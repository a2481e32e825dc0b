/**
 * The text the agent last read of each file (`fs/read_text_file`), kept so an editor-backed write can merge
 * against what the agent saw (`WorkspaceFiles.writeText`) and the ledger can flag a stale write. Bounded: least
 * recently used entries go first once the texts pass `maxBytes` (UTF-16 length × 2), and a text larger than
 * `maxEntryBytes` is not kept at all. A forgotten entry only means the write merges against the disk text, as for
 * a file the agent never read.
 */
export const LAST_READ_MAX_BYTES = 16 * 1024 * 1024;
export const LAST_READ_MAX_ENTRY_BYTES = 4 * 1024 * 1024;

const sizeOf = (text: string) => text.length * 2;

export class LastReadCache {
  readonly #texts = new Map<string, string>();
  #bytes = 0;

  constructor(
    readonly maxBytes: number = LAST_READ_MAX_BYTES,
    readonly maxEntryBytes: number = Math.min(LAST_READ_MAX_ENTRY_BYTES, maxBytes),
  ) {}

  /** Bytes held now (never over `maxBytes`). */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#texts.size;
  }

  get(path: string): string | undefined {
    const text = this.#texts.get(path);
    if (text === undefined) return undefined;
    this.#texts.delete(path); // most recently used last
    this.#texts.set(path, text);
    return text;
  }

  set(path: string, text: string): void {
    this.delete(path);
    if (sizeOf(text) > this.maxEntryBytes) return;
    this.#texts.set(path, text);
    this.#bytes += sizeOf(text);
    for (const [oldest, old] of this.#texts) {
      if (this.#bytes <= this.maxBytes) break;
      this.#texts.delete(oldest);
      this.#bytes -= sizeOf(old);
    }
  }

  delete(path: string): boolean {
    const text = this.#texts.get(path);
    if (text === undefined) return false;
    this.#texts.delete(path);
    this.#bytes -= sizeOf(text);
    return true;
  }
}
