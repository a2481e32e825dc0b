/**
 * File operations that fail differently on Windows. A rename over a file another process has open (an
 * antivirus scan, a second editor window reading it, the search indexer) fails there with EPERM / EACCES /
 * EBUSY for a moment; POSIX never does. Such renames are retried briefly on Windows, as graceful-fs does.
 */
import { renameSync } from "node:fs";
import { rename as renameAsync } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import { sleepSync } from "../util/sleep";
import { HOST_PLATFORM, isWindows, type Platform } from "./host";

const TRANSIENT = new Set(["EPERM", "EACCES", "EBUSY"]);
export const RENAME_RETRY_MS = 1_000;

/** `renameSync`, retried for up to RENAME_RETRY_MS on Windows while the target is briefly locked. */
export function renameReplacing(
  from: string,
  to: string,
  p: Platform = HOST_PLATFORM,
  rename: (from: string, to: string) => void = renameSync,
  retryMs = RENAME_RETRY_MS,
): void {
  const deadline = Date.now() + retryMs;
  for (let wait = 10; ; wait = Math.min(wait * 2, 100)) {
    try {
      return rename(from, to);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "";
      if (!isWindows(p) || !TRANSIENT.has(code) || Date.now() >= deadline) throw err;
      sleepSync(wait);
    }
  }
}

/** `renameReplacing` on libuv's thread pool: the caller's thread never waits (the Windows retries sleep as timers). */
export async function renameReplacingAsync(
  from: string,
  to: string,
  p: Platform = HOST_PLATFORM,
  rename: (from: string, to: string) => Promise<void> = renameAsync,
  retryMs = RENAME_RETRY_MS,
): Promise<void> {
  const deadline = Date.now() + retryMs;
  for (let wait = 10; ; wait = Math.min(wait * 2, 100)) {
    try {
      return await rename(from, to);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "";
      if (!isWindows(p) || !TRANSIENT.has(code) || Date.now() >= deadline) throw err;
      await delay(wait);
    }
  }
}
