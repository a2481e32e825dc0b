/**
 * The file calls of the advisory lock (file-lock.ts), twice: synchronous (`execLockSync`) and on libuv's thread pool
 * (`execLockAsync`). The lock's protocol is written once, as steps (core/util/steps.ts); these only perform a step,
 * so the two ways cannot drift apart. Also the lock file's format: holder JSON in, `Seen` out.
 */
import { closeSync, constants, copyFileSync, fstatSync, fsyncSync, linkSync, openSync, readSync } from "node:fs";
import { renameSync, rmSync, writeSync } from "node:fs";
import { copyFile, link, open, rename, rm } from "node:fs/promises";

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

export interface Seen {
  /** The token, or a signature of an unreadable file (inode, mtime, size). */
  id: string;
  holder?: LockHolder;
  mtimeMs: number;
}

/** One file call of the lock protocol. */
export type LockOp =
  /** Read a lock or guard file: `Seen`, or undefined when it does not exist. */
  | { kind: "look"; path: string }
  /** Create `path` (exclusive, 0600) holding `text`, fsynced. */
  | { kind: "writeTmp"; path: string; text: string }
  /** Hard-link `from` to `to`: "linked", "exists", or "unsupported" (a file system without hard links). */
  | { kind: "link"; from: string; to: string }
  /** Copy `from` to `to` unless `to` exists: true when copied. */
  | { kind: "copyExcl"; from: string; to: string }
  | { kind: "rename"; from: string; to: string }
  /** Remove, if there. */
  | { kind: "rm"; path: string };

export type LinkResult = "linked" | "exists" | "unsupported";

const MAX_LOCK_BYTES = 64 * 1024;

export function execLockSync(op: LockOp): unknown {
  switch (op.kind) {
    case "look":
      return look(op.path);
    case "writeTmp": {
      const fd = openSync(op.path, "wx", 0o600);
      try {
        writeSync(fd, op.text);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      return undefined;
    }
    case "link":
      try {
        linkSync(op.from, op.to);
        return "linked";
      } catch (err) {
        return linkFailed(err);
      }
    case "copyExcl":
      try {
        copyFileSync(op.from, op.to, constants.COPYFILE_EXCL);
        return true;
      } catch (err) {
        return copyFailed(err);
      }
    case "rename":
      return renameSync(op.from, op.to);
    case "rm":
      return rmSync(op.path, { force: true });
  }
}

export async function execLockAsync(op: LockOp): Promise<unknown> {
  switch (op.kind) {
    case "look":
      return lookAsync(op.path);
    case "writeTmp": {
      const fh = await open(op.path, "wx", 0o600);
      try {
        await fh.writeFile(op.text);
        await fh.sync();
      } finally {
        await fh.close();
      }
      return undefined;
    }
    case "link":
      return link(op.from, op.to).then(() => "linked", linkFailed);
    case "copyExcl":
      return copyFile(op.from, op.to, constants.COPYFILE_EXCL).then(() => true, copyFailed);
    case "rename":
      return rename(op.from, op.to);
    case "rm":
      return rm(op.path, { force: true });
  }
}

function linkFailed(err: unknown): LinkResult {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "EEXIST") return "exists";
  if (code === "EPERM" || code === "ENOTSUP" || code === "ENOSYS") return "unsupported";
  throw err;
}

function copyFailed(err: unknown): boolean {
  if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
  throw err;
}

/** Reads a lock or guard file; undefined when it does not exist. */
export function look(path: string): Seen | undefined {
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
export async function lookAsync(path: string): Promise<Seen | undefined> {
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
