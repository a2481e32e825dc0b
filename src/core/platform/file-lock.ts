/**
 * One writer per file: an advisory `<file>.lock` saying who holds it (pid, host, label, since, a unique token).
 *
 * Taking the lock is atomic: the holder info is written completely to a private temp file first and then
 * `link()`ed to the lock path, which fails if a lock is there, so a lock file is never seen empty or half-written.
 * A lock whose pid is gone (same host) is stale and is taken over without a race: the takers of one stale lock
 * first `link()` a guard named after that lock's token (`<file>.lock.takeover-<token>`); only the one that creates
 * the guard may replace the lock, and it does so with one `rename()` after checking the lock still carries that
 * token, so two takers can never both win and a fresh lock is never removed. A taker that dies holding the guard
 * is itself stale, and the next taker links a guard named after it (bounded chain). An unreadable lock (written
 * by an older version, which created it empty and wrote it after) counts as held until it is `UNREADABLE_GRACE_MS`
 * old. A lock on another host is never stale: its pid cannot be probed.
 *
 * `tryAcquireLock` says who holds a busy lock; `acquireLock` throws AcpThreadsError("locked") with the holder in
 * `details.holder`; `waitForLock` resolves once the holder is gone. `setLockLabel` names this process's locks
 * ("VS Code window", "acp-threads run").
 */
import {
  closeSync,
  constants,
  copyFileSync,
  fstatSync,
  fsyncSync,
  linkSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { open } from "node:fs/promises";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { AcpThreadsError } from "../errors";

export interface LockHolder {
  pid: number;
  host: string;
  /** What holds it, for people: "VS Code window", "acp-threads run". */
  label: string;
  /** ISO time the lock was taken. */
  since: string;
  /** Unique per acquisition; empty for a lock written by an older version. */
  token: string;
  /**
   * When the holding process started (ms; the same in all its threads): a lock with our pid and our start was taken
   * by this process, perhaps by another worker thread; another start means a previous process had our pid.
   */
  boot?: number;
  /** A tag of the thread that took it (random per thread). */
  thread?: string;
}

/** @deprecated the older name of LockHolder */
export type LockInfo = LockHolder;

export type LockAttempt = { ok: true; release: () => void } | { ok: false; holder: LockHolder };

/** An unreadable lock younger than this may be an older version's writer between create and write. */
export const UNREADABLE_GRACE_MS = 30_000;
const MAX_GUARD_DEPTH = 8;
const MAX_ROUNDS = 50;

export const lockPathFor = (file: string) => `${file}.lock`;
/** Tokens of the locks (and takeover guards) this process holds. */
/** Tokens this thread holds (module state is per thread: another thread's locks are not in here). */
const heldHere = new Set<string>();
/** This process's start (ms), as every one of its threads computes it (within a few ms). */
export const processBoot = Math.round(Date.now() - process.uptime() * 1000);
const BOOT_SLACK_MS = 1000;
/** Tells this thread's locks from another thread's of the same process (node:worker_threads costs a load). */
const threadTag = Math.random().toString(36).slice(2, 10);
let defaultLabel = `${process.argv[1]?.split(/[\\/]/).pop() ?? "node"} (pid ${process.pid})`;

/** Names the locks this process takes from now on (shown to a second opener). */
export function setLockLabel(label: string): void {
  defaultLabel = label;
}

export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface Seen {
  /** The token, or a signature of an unreadable file (inode, mtime, size). */
  id: string;
  holder?: LockHolder;
  mtimeMs: number;
}

/** Reads a lock or guard file; undefined when it does not exist. */
function look(path: string): Seen | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  try {
    const st = fstatSync(fd);
    const buf = Buffer.alloc(Math.min(st.size, MAX_LOCK_BYTES));
    const n = buf.length ? readSync(fd, buf, 0, buf.length, 0) : 0;
    return seenOf(buf.subarray(0, n), st);
  } finally {
    closeSync(fd);
  }
}

/** `look` without a synchronous file call (a follower's poll on the extension host). */
async function lookAsync(path: string): Promise<Seen | undefined> {
  const fh = await open(path, "r").catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return undefined;
    throw err;
  });
  if (!fh) return undefined;
  try {
    const st = await fh.stat();
    const buf = Buffer.alloc(Math.min(st.size, MAX_LOCK_BYTES));
    const n = buf.length ? (await fh.read(buf, 0, buf.length, 0)).bytesRead : 0;
    return seenOf(buf.subarray(0, n), st);
  } finally {
    await fh.close();
  }
}

const MAX_LOCK_BYTES = 64 * 1024;

function seenOf(bytes: Buffer, st: { ino: number; mtimeMs: number; size: number }): Seen {
  const holder = parseHolder(bytes.toString("utf8"));
  const id = holder?.token || `i${st.ino}-${Math.round(st.mtimeMs)}-${st.size}`;
  return { id, holder, mtimeMs: st.mtimeMs };
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const raw = JSON.parse(text) as Partial<LockHolder> & { startedAt?: string };
    if (typeof raw.pid !== "number" || typeof raw.host !== "string") return undefined;
    const since = raw.since ?? raw.startedAt ?? "";
    const extra = {
      ...(typeof raw.boot === "number" ? { boot: raw.boot } : {}),
      ...(typeof raw.thread === "string" ? { thread: raw.thread } : {}),
    };
    return { pid: raw.pid, host: raw.host, label: raw.label ?? "", since, token: raw.token ?? "", ...extra };
  } catch {
    return undefined;
  }
}

function isStale(seen: Seen): boolean {
  const h = seen.holder;
  if (!h) return Date.now() - seen.mtimeMs > UNREADABLE_GRACE_MS;
  if (h.host !== hostname()) return false;
  if (h.pid === process.pid) {
    // taken by this thread: live while we hold it. By another thread of this process (same start): live, since a
    // thread cannot be asked whether it is alive. By a previous process that had our pid: stale
    if (h.thread === threadTag || h.boot === undefined) return !heldHere.has(h.token);
    return Math.abs(h.boot - processBoot) > BOOT_SLACK_MS;
  }
  return !pidAlive(h.pid);
}

const unknownHolder = (seen: Seen): LockHolder => ({
  pid: 0,
  host: hostname(),
  label: "unknown (the lock file is unreadable; it may still be being written)",
  since: new Date(seen.mtimeMs).toISOString(),
  token: "",
});

/** The holder of `file`'s lock, live or stale; undefined when there is none or it is unreadable. */
export function readLock(file: string): LockHolder | undefined {
  return look(lockPathFor(file))?.holder;
}

/** The live holder of `file`'s lock, if any (a lock on another host counts as live). */
export function liveWriter(file: string): LockHolder | undefined {
  const seen = look(lockPathFor(file));
  if (!seen || isStale(seen)) return undefined;
  return seen.holder ?? unknownHolder(seen);
}

/** `liveWriter` without a synchronous file call. */
export async function liveWriterAsync(file: string): Promise<LockHolder | undefined> {
  const seen = await lookAsync(lockPathFor(file));
  if (!seen || isStale(seen)) return undefined;
  return seen.holder ?? unknownHolder(seen);
}

/** Takes `file`'s lock, or says who holds it. */
export function tryAcquireLock(file: string, opts: { label?: string } = {}): LockAttempt {
  const lock = lockPathFor(file);
  // a live holder answers at once: no lock file written and fsynced for nothing (an fsync waits behind every dirty
  // page of the disk, seconds while an import writes)
  const before = look(lock);
  if (before && !isStale(before)) return { ok: false, holder: before.holder ?? unknownHolder(before) };
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    label: opts.label ?? defaultLabel,
    since: new Date().toISOString(),
    token: newToken(),
    boot: processBoot,
    thread: threadTag,
  };
  const tmp = `${lock}.${me.token}.tmp`;
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeSync(fd, JSON.stringify(me));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (tryLink(tmp, lock)) return { ok: true, release: held(file, me.token) };
      const seen = look(lock);
      if (!seen) continue; // released in between: link again
      if (!isStale(seen)) return { ok: false, holder: seen.holder ?? unknownHolder(seen) };
      const outcome = takeOver(lock, seen.id, tmp);
      if (outcome === "won") return { ok: true, release: held(file, me.token) };
      if (outcome !== "retry") return { ok: false, holder: outcome };
    }
    throw new AcpThreadsError("locked", `could not lock ${file}: the lock keeps changing hands`);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Takes `file`'s lock; a live holder is an AcpThreadsError("locked") naming it (`details.holder`). */
export function acquireLock(file: string, opts: { label?: string } = {}): () => void {
  const attempt = tryAcquireLock(file, opts);
  if (attempt.ok) return attempt.release;
  throw lockedError(file, attempt.holder);
}

/** Resolves with the release function once `file`'s lock is ours (polling until its holder is gone). */
export async function waitForLock(
  file: string,
  opts: { label?: string; signal?: AbortSignal; pollMs?: number; onBusy?: (holder: LockHolder) => void } = {},
): Promise<() => void> {
  let told = "";
  for (;;) {
    opts.signal?.throwIfAborted();
    const attempt = tryAcquireLock(file, opts);
    if (attempt.ok) return attempt.release;
    if (attempt.holder.token !== told) opts.onBusy?.(attempt.holder);
    told = attempt.holder.token;
    await sleep(opts.pollMs ?? 250, undefined, { signal: opts.signal });
  }
}

/** Removes `file`'s lock if its holder is gone (race-free, like a takeover); true when no lock is left. */
export function clearStaleLock(file: string): boolean {
  if (!look(lockPathFor(file))) return true;
  const attempt = tryAcquireLock(file, { label: "stale lock cleanup" });
  if (!attempt.ok) return false;
  attempt.release();
  return true;
}

export function describeHolder(h: LockHolder): string {
  const parts = [h.label || "unnamed", h.host !== hostname() ? `on ${h.host}` : "", h.since ? `since ${h.since}` : ""];
  return parts.filter(Boolean).join(", ");
}

export function lockedError(file: string, holder: LockHolder): AcpThreadsError {
  return new AcpThreadsError(
    "locked",
    `${file} is already being written by process ${holder.pid || "?"}; only one writer is allowed (held by ${describeHolder(holder)})`,
    { holder, pid: holder.pid },
  );
}

function tryLink(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS") throw err;
  }
  // a file system without hard links: an exclusive copy (readers treat the moment it is empty as held)
  try {
    copyFileSync(from, to, constants.COPYFILE_EXCL);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

/**
 * Replaces the stale lock `staleId` with ours (`tmp`), if we are the one taker that creates its guard.
 * "won": the lock is ours; "retry": the lock changed meanwhile; a holder: a live taker is replacing it.
 */
function takeOver(lock: string, staleId: string, tmp: string): "won" | "retry" | LockHolder {
  let guard = `${lock}.takeover-${safe(staleId)}`;
  const chain: string[] = [];
  for (let depth = 0; ; depth++) {
    if (tryLink(tmp, guard)) break;
    const taker = look(guard);
    if (!taker) continue; // removed by a finished takeover: try to create it again
    if (!isStale(taker)) return taker.holder ?? unknownHolder(taker);
    if (depth >= MAX_GUARD_DEPTH) {
      throw new AcpThreadsError("locked", `could not take over the stale lock ${lock}: too many takers died`);
    }
    chain.push(guard);
    guard = `${lock}.takeover-${safe(taker.id)}`;
  }
  try {
    if (look(lock)?.id !== staleId) return "retry";
    renameSync(tmp, lock); // one atomic step: the lock is never absent, so no plain acquirer slips in
    for (const dead of chain) rmSync(dead, { force: true });
    return "won";
  } finally {
    rmSync(guard, { force: true });
  }
}

/** Unique among the processes of a host (pid) and the locks of this process (time + counter). */
let counter = 0;
const newToken = () =>
  `${process.pid.toString(36)}-${process.hrtime.bigint().toString(36)}-${(counter++).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

const safe = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, "_");

function held(file: string, token: string): () => void {
  heldHere.add(token);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    heldHere.delete(token);
    // only our own lock: a holder that is alive is never taken over, so nobody replaced it
    if (look(lockPathFor(file))?.id === token) rmSync(lockPathFor(file), { force: true });
  };
}
