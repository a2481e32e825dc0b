/**
 * Export/Import snapshot for the sessions view. Snapshots are the thread's JSONL (export copies complete
 * lines; import validates the file and refuses to overwrite an existing thread).
 */
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { AcpThreadsError } from "../core/errors";
import type { ThreadStore } from "../core/store/thread-store";

export function exportSnapshot(store: ThreadStore, threadId: string, destPath: string): void {
  store.exportJsonl(threadId, destPath);
}

/** Returns the imported thread's id. */
export function importSnapshot(store: ThreadStore, srcPath: string): string {
  const { metadata } = store.readPath(srcPath); // throws "corrupt" for a file that is not a thread
  if (store.exists(metadata.threadId))
    throw new AcpThreadsError("usage", `thread ${metadata.threadId} already exists; not overwriting it`);
  mkdirSync(store.threadsDir, { recursive: true, mode: 0o700 });
  const dest = store.pathFor(metadata.threadId);
  if (existsSync(dest)) throw new AcpThreadsError("usage", `${dest} exists`);
  copyFileSync(srcPath, dest);
  return metadata.threadId;
}
