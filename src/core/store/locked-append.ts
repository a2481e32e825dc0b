/**
 * A durable append to a JSONL file several processes add to in short bursts (the edit ledger: the extension and
 * the CLI), without one synchronous file call: take the file's writer lock (`tryAcquireLockAsync`, the lock
 * JsonlWriter takes, so the two exclude each other), open, cut a torn tail (torn-tail.ts), write the lines in one
 * write, fsync, close, release. It resolves once the lines are durable; meanwhile the caller's thread (the
 * extension host) runs on. Appends of this process to one file go out one at a time, in call order, so they never
 * poll the lock against each other; a lock held by another process is waited for up to `waitMs` (its appends are
 * short), then the append fails with AcpThreadsError("locked") naming the holder.
 */
import { mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { nullLogger, type Logger } from "../log";
import { lockedError, tryAcquireLockAsync } from "./file-lock";
import { repairTornTailAsync } from "./torn-tail";

export interface LockedAppendOptions {
  logger?: Logger;
  /** How long another process's lock is waited for (default 3 s). */
  waitMs?: number;
}

const POLL_MS = 20;
/** Per file: the end of this process's last queued append (never rejects). */
const queues = new Map<string, Promise<void>>();

/** Appends `text` (whole lines) to `path` under its lock; resolves once it is durable. */
export function appendLocked(path: string, text: string, opts: LockedAppendOptions = {}): Promise<void> {
  const run = (queues.get(path) ?? Promise.resolve()).then(() => appendOnce(path, text, opts));
  const forget = () => {
    if (queues.get(path) === done) queues.delete(path);
  };
  const done = run.then(forget, forget);
  queues.set(path, done);
  return run;
}

async function appendOnce(path: string, text: string, opts: LockedAppendOptions): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const release = await takeLock(path, opts.waitMs ?? 3000);
  try {
    const fh = await open(path, "a+", 0o600);
    try {
      await fh.chmod(0o600);
      const size = await repairTornTailAsync(fh.fd, (await fh.stat()).size, path, opts.logger ?? nullLogger);
      const buf = Buffer.from(text, "utf8");
      let off = 0;
      while (off < buf.length) off += (await fh.write(buf, off, buf.length - off, size + off)).bytesWritten;
      await fh.sync();
    } finally {
      await fh.close();
    }
  } finally {
    await release();
  }
}

async function takeLock(path: string, waitMs: number): Promise<() => Promise<void>> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const attempt = await tryAcquireLockAsync(path);
    if (attempt.ok) return attempt.release;
    // another process is appending right now: its append is short, wait for it
    if (Date.now() >= deadline) throw lockedError(path, attempt.holder);
    await sleep(POLL_MS);
  }
}
