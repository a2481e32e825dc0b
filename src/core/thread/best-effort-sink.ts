/**
 * A ThreadSink that never throws: the first store error is reported once and every later record is dropped,
 * so a session whose thread cannot be written (disk full, a read-only home) still runs. `acp-threads run`
 * records this way: the answer matters more than its record. Without a store at all (creating the thread
 * failed), it starts detached.
 */
import type { MetadataPatch, RecordInput } from "../model/records";
import type { ThreadSink } from "./live-thread";

export class BestEffortSink implements ThreadSink {
  #inner: ThreadSink | undefined;
  #closed = false;
  /** The inner sink's size after its last good write: what the file surely holds once it failed. */
  #size = 0;

  constructor(
    readonly threadId: string,
    inner: ThreadSink | undefined,
    private readonly onError: (err: unknown) => void,
  ) {
    this.#inner = inner;
    this.#size = inner?.size ?? 0;
  }

  /** False once the thread is no longer written (or never was). */
  get recording(): boolean {
    return !!this.#inner;
  }
  get path(): string {
    return this.#inner?.path ?? "";
  }
  get size(): number {
    return this.#size;
  }
  get closed(): boolean {
    return this.#inner ? this.#inner.closed : this.#closed;
  }
  append(input: RecordInput): void {
    this.#try((s) => s.append(input));
  }
  patch(patch: MetadataPatch): void {
    this.#try((s) => s.patch(patch));
  }
  onPatch(fn: (patch: MetadataPatch) => void): () => void {
    return this.#inner?.onPatch?.(fn) ?? (() => undefined);
  }
  sync(): void {
    this.#try((s) => s.sync());
  }
  flushed(): Promise<void> {
    return this.#inner?.flushed?.() ?? Promise.resolve();
  }
  checkpoint(): void {
    this.#try((s) => (s.checkpoint ? s.checkpoint() : s.sync()));
  }
  close(): void {
    this.#closed = true;
    this.#try((s) => s.close());
  }

  #try(fn: (inner: ThreadSink) => void): void {
    const inner = this.#inner;
    if (!inner) return;
    try {
      fn(inner);
      this.#size = inner.size;
    } catch (err) {
      this.#inner = undefined;
      this.#closed = inner.closed;
      try {
        if (!inner.closed) inner.close();
      } catch {
        // the store already failed once; its error is the one reported
      }
      this.onError(err);
    }
  }
}
