/**
 * A read-only view of a thread another process is writing: it reads the records the writer appends (complete
 * lines only) and watches the writer's lock, so a second window or CLI process can show the thread live, say who
 * holds it (pid, label such as "VS Code window" or "acp-threads run", host) and take over once that one is gone.
 * Polls (the file and its lock are both tiny reads, asynchronous: an editor panel follows a thread on the
 * extension host's thread); never takes the lock itself.
 */
import { stat } from "node:fs/promises";
import { Emitter, type Disposable } from "../lifecycle";
import type { ThreadRecord } from "../model/records";
import { liveWriter, liveWriterAsync, type LockHolder } from "./file-lock";
import { readRecordsAsync } from "./jsonl-reader";
import { background } from "../util/unexpected";

export const FOLLOW_POLL_MS = 300;

export class ThreadFollower implements Disposable {
  readonly #records = new Emitter<ThreadRecord[]>();
  readonly #holders = new Emitter<LockHolder | undefined>();
  /** Records the writer appended since the last poll. */
  readonly onRecords = this.#records.event;
  /** The writer changed: another holder, or undefined once nobody writes the thread any more. */
  readonly onHolder = this.#holders.event;
  #offset: number;
  #holder: LockHolder | undefined;
  readonly #timer: NodeJS.Timeout;
  #polling: Promise<void> | undefined;
  #disposed = false;

  /** `fromOffset`: where the caller's own read of the file ended (records before it are not sent again). */
  constructor(
    readonly path: string,
    opts: { fromOffset?: number; pollMs?: number } = {},
  ) {
    this.#offset = opts.fromOffset ?? 0;
    this.#holder = liveWriter(path);
    // a ref'd timer: a CLI process that only follows must stay alive until it can take over (dispose stops it)
    this.#timer = setInterval(() => background(this.poll(), "following a thread"), opts.pollMs ?? FOLLOW_POLL_MS);
  }

  /** Who writes the thread now (undefined: nobody; it can be taken over). */
  get holder(): LockHolder | undefined {
    return this.#holder;
  }

  /** Reads what is new and looks at the lock (also called by the timer; a poll under way is joined, not doubled). */
  poll(): Promise<void> {
    return (this.#polling ??= this.#poll().finally(() => (this.#polling = undefined)));
  }

  async #poll(): Promise<void> {
    // the lock first: a writer releases it only after its last record is on disk, so once it is free the read
    // below has everything
    const holder = await liveWriterAsync(this.path).catch(() => this.#holder);
    try {
      if ((await stat(this.path)).size > this.#offset) {
        const read = await readRecordsAsync(this.path, this.#offset);
        this.#offset = read.endOffset;
        if (read.records.length && !this.#disposed) this.#records.fire(read.records);
      }
    } catch {
      // the thread was deleted or moved: nothing more to follow
    }
    if (this.#disposed) return;
    if (holder?.token !== this.#holder?.token || !!holder !== !!this.#holder) {
      this.#holder = holder;
      this.#holders.fire(holder);
    }
  }

  /** Resolves once nobody holds the thread (after the last records were delivered), or when `signal` aborts. */
  whenFree(signal?: AbortSignal): Promise<boolean> {
    if (!this.#holder) return Promise.resolve(true);
    return new Promise((resolve) => {
      const sub = this.onHolder((h) => {
        if (h) return;
        sub.dispose();
        resolve(true);
      });
      signal?.addEventListener(
        "abort",
        () => {
          sub.dispose();
          resolve(false);
        },
        { once: true },
      );
    });
  }

  dispose(): void {
    this.#disposed = true;
    clearInterval(this.#timer);
    this.#records.dispose();
    this.#holders.dispose();
  }
}
