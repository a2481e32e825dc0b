/** A thread open for writing: its records, metadata patches and durability points (ThreadStore hands them out). */
import type { AppendListener } from "../thread/live-thread";
import type { JsonlWriter } from "./jsonl-writer";
import type { MetadataPatch, RecordInput, ThreadRecord } from "../model/records";

/**
 * When a thread's durability points (a metadata patch, a turn's end) reach the disk: "now" fsyncs before the call
 * returns (the CLI); "soon" writes at once and hands the fsync to the thread pool (the extension host, whose
 * thread must not wait on the disk every turn). See JsonlWriter for the contract.
 */
export type Durability = "now" | "soon";

/** The user's title as a patch (kept over the agent's titles); null or blank clears it, and agent titles apply again. */
export function userTitlePatch(title: string | null): MetadataPatch {
  const clean = title?.trim() || null;
  return { title: clean, titleByUser: clean !== null };
}

/** A thread open for writing (the store keeps at most one per thread in this process). */
export class ThreadHandle {
  readonly #patchListeners = new Set<(patch: MetadataPatch) => void>();
  readonly #appendListeners = new Set<AppendListener>();
  constructor(
    readonly threadId: string,
    readonly writer: JsonlWriter,
    /** `pending`: the close goes on off the caller's thread (durability "soon"), resolving once it is complete. */
    private readonly onClose: (pending?: Promise<void>) => void,
    readonly durability: Durability = "now",
  ) {}
  get path(): string {
    return this.writer.path;
  }
  get closed(): boolean {
    return this.writer.closed;
  }
  /** The thread file's size: the bytes written through this handle, the only writer while it is open. */
  get size(): number {
    return this.writer.size;
  }
  append(input: RecordInput): ThreadRecord {
    return this.writer.append(input, this.#appended);
  }
  appendMany(inputs: RecordInput[]): ThreadRecord[] {
    return this.writer.appendMany(inputs, this.#appended);
  }
  /** Resolves once every record appended so far is in the file (JsonlWriter.flushed; rejects if a write failed). */
  flushed(): Promise<void> {
    return this.writer.flushed();
  }
  /** Writes a meta_patch record and makes it durable (at once or soon: `durability`). */
  patch(patch: MetadataPatch): ThreadRecord {
    const rec = this.append({ kind: "meta_patch", patch });
    this.checkpoint();
    for (const fn of this.#patchListeners) fn(patch);
    return rec;
  }
  /** `patch` with the record written on the thread pool (JsonlWriter.appendAsync); the durability point as `patch`'s. */
  async patchAsync(patch: MetadataPatch): Promise<ThreadRecord> {
    const rec = await this.writer.appendAsync({ kind: "meta_patch", patch }, this.#appended);
    this.checkpoint();
    for (const fn of this.#patchListeners) fn(patch);
    return rec;
  }
  /** Follows every patch written through this handle (a rename while a session holds the thread); returns the unsubscribe. */
  onPatch(fn: (patch: MetadataPatch) => void): () => void {
    this.#patchListeners.add(fn);
    return () => this.#patchListeners.delete(fn);
  }
  /**
   * Follows every record appended through this handle, once it is in the file (synchronously in the append; a
   * writer on the thread pool: as its bytes land, in order): the records and the byte range they took in the file.
   * The thread host feeds its clients from it. Returns the unsubscribe.
   */
  onAppend(fn: AppendListener): () => void {
    this.#appendListeners.add(fn);
    return () => this.#appendListeners.delete(fn);
  }
  readonly #appended = (records: ThreadRecord[], start: number, end: number): void => {
    for (const fn of this.#appendListeners) fn(records, start, end);
  };
  /** A durability point of the live session: fsync now or soon, as the store was told (`durability`). */
  checkpoint(): void {
    if (this.durability === "soon") this.writer.syncSoon();
    else this.writer.sync();
  }
  sync(): void {
    this.writer.sync();
  }
  /**
   * Closes the thread: "now" fsyncs, closes and unlocks before returning; "soon" refuses writes at once and does
   * the rest off the caller's thread (JsonlWriter.closeSoon; the store waits for it before opening the thread again).
   */
  close(): void {
    if (this.writer.closed) return;
    if (this.durability === "soon") {
      this.onClose(this.writer.closeSoon());
      return;
    }
    this.writer.close();
    this.onClose();
  }
}
