/**
 * The threads folder's change journal (#36): every writer of this version appends a thread's id when it opens
 * the thread for writing and again when it closes it, deletes, restores or imports it. The threads index reads
 * the journal from where it stopped and re-reads just those threads, instead of stat-ing every thread file on
 * each `threads list`. One short O_APPEND line each (atomic for a line this short); the store never reads it.
 * Losing a line is safe: the index falls back to stat-ing every file when the folder changed unexplained.
 */
import { appendFile, appendFileSync, mkdir, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Logger } from "../log";
import type { Durability } from "./thread-handle";

/** The journal beside the threads index (`<home>/index/threads.changes`). */
export const changeJournalPath = (threadIndexDb: string): string => join(dirname(threadIndexDb), "threads.changes");

/** The newest threads for a `threads list` without SQLite, beside the index (`<home>/index/threads.recent.json`). */
export const recentThreadsPath = (threadIndexDb: string): string => join(dirname(threadIndexDb), "threads.recent.json");

/**
 * Appends `threadId` to the journal at `path`: at once (the CLI, durability "now"), or without waiting on the disk
 * (the extension host, "soon"). A failure is logged, never thrown: the journal only speeds the index up.
 */
export function journalChange(path: string, threadId: string, durability: Durability, logger: Logger): void {
  const line = `${threadId}\n`;
  const failed = (err: unknown) => logger.warn(`the threads change journal was not written: ${String(err)}`);
  if (durability === "soon") {
    appendFile(path, line, { mode: 0o600 }, (err) => {
      if (err?.code !== "ENOENT") return err && failed(err);
      // a first run: the index folder does not exist yet
      mkdir(dirname(path), { recursive: true, mode: 0o700 }, () =>
        appendFile(path, line, { mode: 0o600 }, (again) => again && failed(again)),
      );
    });
    return;
  }
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    appendFileSync(path, line, { mode: 0o600 });
  } catch (err) {
    failed(err);
  }
}
