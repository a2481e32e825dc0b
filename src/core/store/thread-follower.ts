/**
 * A read-only view of a thread another process is writing (the `threads.follow` engine request, serve-follow.ts):
 * it reads the records the writer appends (complete lines only) and watches the writer's lock, so a second window
 * or CLI process can show the thread live, say who holds it (pid, label such as "VS Code window" or "acp-threads
 * run", host) and take over once that one is gone. Polls (the file and its lock are both tiny reads, asynchronous:
 * an editor panel follows a thread on the extension host's thread); never takes the lock itself.
 */
import { stat } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import type { ThreadRecord } from "../model/records";
import { liveWriterAsync, type LockHolder } from "./file-lock";
import { readRecordsAsync } from "./jsonl-reader";

export const FOLLOW_POLL_MS = 300;

export interface FollowOptions {
  /** Where the caller's own read of the file ended (records before it are not sent again); default its end now. */
  fromOffset?: number;
  pollMs?: number;
  /** Ends the follow (the reply then says `free: false`); no timer is left behind. */
  signal?: AbortSignal;
  /** Records the writer appended since the last poll, in file order; `offset`: where they end. */
  onRecords(records: ThreadRecord[], offset: number): void;
  /** The writer at the start, and each other writer after it (never undefined: nobody holding it ends the follow). */
  onHolder(holder: LockHolder): void;
}

/**
 * Follows the thread file at `path` until nobody holds it (after its last records were delivered: `free: true`) or
 * `signal` aborts (`free: false`). `offset`: where the delivered records end.
 */
export async function followThread(path: string, o: FollowOptions): Promise<{ free: boolean; offset: number }> {
  let offset = o.fromOffset ?? (await stat(path)).size;
  let holder: LockHolder | undefined;
  for (;;) {
    // the lock first: a writer releases it only after its last record is on disk, so once it is free the read
    // below has everything
    const now = await liveWriterAsync(path).catch(() => holder);
    const read = await readNew(path, offset);
    if (o.signal?.aborted) return { free: false, offset }; // what this poll read is not delivered, nor counted
    if (read) {
      offset = read.endOffset;
      if (read.records.length) o.onRecords(read.records, offset);
    }
    if (!now) return { free: true, offset };
    if (!holder || !sameHolder(now, holder)) o.onHolder(now);
    holder = now;
    const aborted = await sleep(o.pollMs ?? FOLLOW_POLL_MS, false, { signal: o.signal }).catch(() => true);
    if (aborted) return { free: false, offset };
  }
}

/** One acquisition of the lock (a lock of an older version has no token: its pid and time tell it). */
const sameHolder = (a: LockHolder, b: LockHolder) =>
  a.token === b.token && a.pid === b.pid && a.host === b.host && a.since === b.since;

/** The complete records after `offset`; undefined when there is nothing new (or the thread was deleted or moved). */
async function readNew(path: string, offset: number) {
  try {
    if ((await stat(path)).size > offset) return await readRecordsAsync(path, offset);
  } catch {
    // the thread was deleted or moved: nothing more to read
  }
  return undefined;
}
