/**
 * Crash safety: threads left `live` by a writer that is gone (a stale lock in the threads folder) get a
 * `status: interrupted` patch; a stale lock on a thread that is not live is only cleared. ThreadStore.markInterrupted.
 */
import { existsSync, readdirSync } from "node:fs";
import type { Logger } from "../log";
import { isThreadId } from "../model/thread-id";
import { clearStaleLock, liveWriter, lockPathFor, readLock } from "./file-lock";
import type { ThreadMetadata } from "../model/metadata";
import type { MetadataPatch } from "../model/records";

/** What the marking asks of the thread store. */
interface Threads {
  readonly threadsDir: string;
  pathFor(threadId: string): string;
  read(threadId: string): { metadata: ThreadMetadata };
  patchMetadata(threadId: string, patch: MetadataPatch): unknown;
}

/** Marks the interrupted threads of `store` (`heldHere`: a thread this process writes or is closing); their ids. */
export function markInterrupted(store: Threads, heldHere: (threadId: string) => boolean, logger: Logger): string[] {
  const marked: string[] = [];
  // one listing finds the locked threads (#36: not an existsSync per thread on every `threads list`)
  for (const id of lockedIds(store.threadsDir)) {
    const path = store.pathFor(id);
    if (heldHere(id) || !existsSync(path) || liveWriter(path)) continue;
    const deadPid = readLock(path)?.pid;
    try {
      if (store.read(id).metadata.status !== "live") {
        clearStaleLock(path);
        continue;
      }
      store.patchMetadata(id, { status: "interrupted", reason: `writer process ${deadPid ?? "?"} exited mid-session` });
      marked.push(id);
    } catch (err) {
      logger.warn(`could not check thread ${id} for interruption: ${(err as Error).message}`);
    }
  }
  return marked;
}

/** Threads with a lock file in the threads folder (held by a writer, or left by one that died). */
function lockedIds(threadsDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(threadsDir);
  } catch {
    return [];
  }
  const suffix = lockPathFor(".jsonl");
  return names
    .filter((n) => n.endsWith(suffix))
    .map((n) => n.slice(0, -suffix.length))
    .filter(isThreadId);
}
