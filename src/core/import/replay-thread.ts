/**
 * Writing an imported session as a thread: the agent's `session/load` replay (already collected, in order) goes
 * through the live turns' recorder (LiveThread) into a staging file beside the threads, written by one
 * JsonlWriter and fsynced on close; the whole file is then renamed into place under the thread's lock. A new
 * thread appears whole, and a re-import replaces the old file in one rename: a reader sees the old thread or the
 * new one, never a mix, and a writer holding the thread (a session continuing it) makes the rename wait for
 * nothing: it is refused.
 */
import { open, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { RuntimeEvent } from "../model/events";
import { initialMetadata } from "../model/metadata";
import {
  stampRecord,
  type MetadataPatch,
  type RecordInput,
  type ThreadRecord,
  type ThreadStartRecord,
} from "../model/records";
import type { AgentInfoRef } from "../model/usage";
import { lockedError, tryAcquireLockAsync } from "../store/file-lock";
import { JsonlWriter } from "../store/jsonl-writer";
import { ThreadHandle } from "../store/thread-handle";
import { LiveThread } from "../thread/live-thread";

/**
 * A thread handle that stamps every record with the session's own time (so the thread sorts where the session
 * happened) and leaves durability to the close: the file is invisible until it is complete.
 */
class StampedHandle extends ThreadHandle {
  constructor(
    threadId: string,
    writer: JsonlWriter,
    private readonly at: Date,
  ) {
    super(threadId, writer, () => {});
  }
  override append(input: RecordInput): ThreadRecord {
    return this.writer.append(stampRecord(input, this.at));
  }
  override patch(patch: MetadataPatch): ThreadRecord {
    return this.append({ kind: "meta_patch", patch });
  }
  override checkpoint(): void {}
}

/**
 * Records the replay as turns: each user message (consecutive chunks joined) opens a turn, everything the agent
 * replayed after it belongs to that turn. Replays carry no stop reasons; every turn ends as `end_turn`.
 */
export function recordReplay(live: LiveThread, replay: readonly RuntimeEvent[]): void {
  let user: { text: string; messageId?: string } | undefined;
  const openTurn = () => {
    if (!user) return;
    if (live.inTurn) live.endTurn("end_turn");
    live.beginTurn(user.text, user.messageId);
    user = undefined;
  };
  for (const event of replay) {
    if (event.type === "user_text") {
      const sameMessage = user && (!event.messageId || !user.messageId || event.messageId === user.messageId);
      if (user && sameMessage) user.text += event.text;
      else {
        openTurn();
        user = { text: event.text, ...(event.messageId ? { messageId: event.messageId } : {}) };
      }
      continue;
    }
    openTurn();
    if (event.type !== "done") live.record(event);
  }
  openTurn();
  if (live.inTurn) live.endTurn("end_turn");
}

export interface StagedThread {
  threadId: string;
  /** The complete thread file, beside the threads, not yet in place. */
  path: string;
}

export interface StagedInput {
  threadsDir: string;
  start: ThreadStartRecord;
  replay: readonly RuntimeEvent[];
  agentInfo?: AgentInfoRef;
  /** The user's own metadata of the thread this one replaces (a rename, tags), written after the replay. */
  keep?: MetadataPatch;
}

/** Writes the thread file for `start` and its replay to a staging path (see the top of this file). */
export async function stageThread(input: StagedInput): Promise<StagedThread> {
  const { start } = input;
  const path = join(input.threadsDir, `.agent-import-${start.threadId}.tmp`);
  await rm(path, { force: true }); // a staging file a crashed import left behind
  const writer = await JsonlWriter.openAsync(path);
  const handle = new StampedHandle(start.threadId, writer, new Date(start.ts));
  try {
    writer.append(start);
    const live = new LiveThread(handle, initialMetadata(start), { flushMs: 0 });
    live.sessionOpened(start.agentSessionId!, "load", input.agentInfo);
    recordReplay(live, input.replay);
    if (input.keep && Object.keys(input.keep).length) live.patch(input.keep);
    live.close("idle");
  } catch (err) {
    handle.close();
    await rm(path, { force: true });
    throw err;
  }
  return { threadId: start.threadId, path };
}

/**
 * Moves a staged thread to `dest` under `dest`'s lock; `check` runs while the lock is held (and may refuse by
 * throwing). The staging file is removed when the move does not happen.
 */
export async function placeThread(staged: StagedThread, dest: string, check?: () => Promise<void>): Promise<void> {
  try {
    const lock = await tryAcquireLockAsync(dest);
    if (!lock.ok) throw lockedError(dest, lock.holder);
    try {
      await check?.();
      await rename(staged.path, dest);
      await fsyncDirAsync(dirname(dest));
    } finally {
      await lock.release();
    }
  } finally {
    await rm(staged.path, { force: true });
  }
}

/** Makes the rename durable; some filesystems refuse to fsync a directory, which we tolerate. */
async function fsyncDirAsync(dir: string): Promise<void> {
  const fh = await open(dir, "r").catch(() => undefined);
  if (!fh) return;
  try {
    await fh.sync();
  } catch {
    // best effort
  } finally {
    await fh.close();
  }
}
