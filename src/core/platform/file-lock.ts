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
 * ("VS Code window", "acp-threads run"). `tryAcquireLockAsync` is `tryAcquireLock` off the caller's thread (the
 * extension host): the same protocol, written once as steps (`acquireSteps`) and run with sync or async file calls
 * (file-lock-io.ts), so the CLI and a VS Code window exclude each other whichever way each took the lock.
 */
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { AcpThreadsError } from "../errors";
import { holderLabel } from "../text/holder-label";
import { runAsync, runSync, step, type Steps } from "../util/steps";
import {
  execLockAsync,
  execLockSync,
  look,
  lookAsync,
  type LinkResult,
  type LockHolder,
  type LockOp,
  type Seen,
} from "./file-lock-io";

export type { LockHolder } from "./file-lock-io";

/** @deprecated the older name of LockHolder */
export type LockInfo = LockHolder;

export type LockAttempt = { ok: true; release: () => void } | { ok: false; holder: LockHolder };
/**
 * A lock taken without blocking the caller's thread; `release` does not block either, `releaseSync` (a look and an
 * unlink, no fsync) is for an owner whose close is synchronous (JsonlWriter). Either releases once.
 */
export type AsyncLockAttempt =
  { ok: true; release: () => Promise<void>; releaseSync: () => void } | { ok: false; holder: LockHolder };

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
  const got = runSync(acquireSteps(file, opts.label ?? defaultLabel), execLockSync);
  if (!got.ok) return got;
  const release = releasers(file, got.token);
  return { ok: true, release: () => void release.sync() };
}

/** `tryAcquireLock` without a synchronous file call: the same protocol, its steps run on libuv's thread pool. */
export async function tryAcquireLockAsync(file: string, opts: { label?: string } = {}): Promise<AsyncLockAttempt> {
  const got = await runAsync(acquireSteps(file, opts.label ?? defaultLabel), execLockAsync);
  if (!got.ok) return got;
  const release = releasers(file, got.token);
  return { ok: true, release: async () => void (await release.async()), releaseSync: () => void release.sync() };
}

type Acquired = { ok: true; token: string } | { ok: false; holder: LockHolder };
const busy = (seen: Seen): Acquired => ({ ok: false, holder: seen.holder ?? unknownHolder(seen) });
const lookStep = (path: string) => step<LockOp, Seen | undefined>({ kind: "look", path });
const rmStep = (path: string) => step<LockOp, void>({ kind: "rm", path });

/** The lock protocol, once (see the top of this file); `runSync` or `runAsync` performs its file calls. */
function* acquireSteps(file: string, label: string): Steps<LockOp, Acquired> {
  const lock = lockPathFor(file);
  // a live holder answers at once: no lock file written and fsynced for nothing (an fsync waits behind every dirty
  // page of the disk, seconds while an import writes)
  const before = yield* lookStep(lock);
  if (before && !isStale(before)) return busy(before);
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    label,
    since: new Date().toISOString(),
    token: newToken(),
    boot: processBoot,
    thread: threadTag,
  };
  const tmp = `${lock}.${me.token}.tmp`;
  yield* step<LockOp, void>({ kind: "writeTmp", path: tmp, text: JSON.stringify(me) });
  // live from its first link on (as the lock or a takeover guard): run asynchronously, another acquirer of this
  // thread may look at it between two steps and must not take it for a stale lock of ours
  heldHere.add(me.token);
  let won = false;
  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      won = yield* linkSteps(tmp, lock);
      if (won) return { ok: true, token: me.token };
      const seen = yield* lookStep(lock);
      if (!seen) continue; // released in between: link again
      if (!isStale(seen)) return busy(seen);
      const outcome = yield* takeOverSteps(lock, seen.id, tmp);
      if (outcome === "won") {
        won = true;
        return { ok: true, token: me.token };
      }
      if (outcome !== "retry") return { ok: false, holder: outcome };
    }
    throw new AcpThreadsError("locked", `could not lock ${file}: the lock keeps changing hands`);
  } finally {
    if (!won) heldHere.delete(me.token);
    yield* rmStep(tmp);
  }
}

/** Takes `file`'s lock; a live holder is an AcpThreadsError("locked") naming it (`details.holder`). */
export function acquireLock(file: string, opts: { label?: string } = {}): () => void {
  const attempt = tryAcquireLock(file, opts);
  if (attempt.ok) return attempt.release;
  throw lockedError(file, attempt.holder);
}

interface WaitOptions {
  label?: string;
  signal?: AbortSignal;
  pollMs?: number;
  onBusy?: (holder: LockHolder) => void;
}

/** Resolves with the release function once `file`'s lock is ours (polling until its holder is gone). */
export function waitForLock(file: string, opts: WaitOptions = {}): Promise<() => void> {
  return pollForLock(() => tryAcquireLock(file, opts), opts);
}

/** `waitForLock` without a synchronous file call (each attempt's steps on libuv's thread pool). */
export function waitForLockAsync(file: string, opts: WaitOptions = {}): Promise<() => Promise<void>> {
  return pollForLock(() => tryAcquireLockAsync(file, opts), opts);
}

type Attempt<R> = { ok: true; release: R } | { ok: false; holder: LockHolder };

async function pollForLock<R>(attempt: () => Attempt<R> | Promise<Attempt<R>>, opts: WaitOptions): Promise<R> {
  let told = "";
  for (;;) {
    opts.signal?.throwIfAborted();
    const got = await attempt();
    if (got.ok) return got.release;
    if (got.holder.token !== told) opts.onBusy?.(got.holder);
    told = got.holder.token;
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
  return holderLabel(h, hostname());
}

export function lockedError(file: string, holder: LockHolder): AcpThreadsError {
  return new AcpThreadsError(
    "locked",
    `${file} is already being written by process ${holder.pid || "?"}; only one writer is allowed (held by ${describeHolder(holder)})`,
    { holder, pid: holder.pid },
  );
}

function* linkSteps(from: string, to: string): Steps<LockOp, boolean> {
  const linked = yield* step<LockOp, LinkResult>({ kind: "link", from, to });
  if (linked !== "unsupported") return linked === "linked";
  // a file system without hard links: an exclusive copy (readers treat the moment it is empty as held)
  return yield* step<LockOp, boolean>({ kind: "copyExcl", from, to });
}

/**
 * Replaces the stale lock `staleId` with ours (`tmp`), if we are the one taker that creates its guard.
 * "won": the lock is ours; "retry": the lock changed meanwhile; a holder: a live taker is replacing it.
 */
function* takeOverSteps(lock: string, staleId: string, tmp: string): Steps<LockOp, "won" | "retry" | LockHolder> {
  let guard = `${lock}.takeover-${safe(staleId)}`;
  const chain: string[] = [];
  for (let depth = 0; ; depth++) {
    if (yield* linkSteps(tmp, guard)) break;
    const taker = yield* lookStep(guard);
    if (!taker) continue; // removed by a finished takeover: try to create it again
    if (!isStale(taker)) return taker.holder ?? unknownHolder(taker);
    if (depth >= MAX_GUARD_DEPTH) {
      throw new AcpThreadsError("locked", `could not take over the stale lock ${lock}: too many takers died`);
    }
    chain.push(guard);
    guard = `${lock}.takeover-${safe(taker.id)}`;
  }
  try {
    if ((yield* lookStep(lock))?.id !== staleId) return "retry";
    // one atomic step: the lock is never absent, so no plain acquirer slips in
    yield* step<LockOp, void>({ kind: "rename", from: tmp, to: lock });
    for (const dead of chain) yield* rmStep(dead);
    return "won";
  } finally {
    yield* rmStep(guard);
  }
}

/** Unique among the processes of a host (pid) and the locks of this process (time + counter). */
let counter = 0;
const newToken = () =>
  `${process.pid.toString(36)}-${process.hrtime.bigint().toString(36)}-${(counter++).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

const safe = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, "_");

/** The release of a lock we hold, run synchronously or not; the first call of either does it, later ones nothing. */
function releasers(file: string, token: string) {
  let released = false;
  const once =
    <R>(run: (steps: Steps<LockOp, void>) => R) =>
    (): R | undefined => {
      if (released) return undefined;
      released = true;
      return run(releaseSteps(file, token));
    };
  return {
    sync: once((steps) => runSync(steps, execLockSync)),
    async: once((steps) => runAsync(steps, execLockAsync)),
  };
}

function* releaseSteps(file: string, token: string): Steps<LockOp, void> {
  try {
    // only our own lock: a holder that is alive is never taken over, so nobody replaced it
    if ((yield* lookStep(lockPathFor(file)))?.id === token) yield* rmStep(lockPathFor(file));
  } finally {
    // ours until it is gone: an acquirer of this thread that looks in between (async) sees it held, not stale
    heldHere.delete(token);
  }
}
