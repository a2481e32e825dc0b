/**
 * One writer per JSONL file: an advisory `<file>.lock` holding the writer's pid. A second writer (another
 * process or the same one) gets a clear error; a lock whose pid is gone is stale and taken over — that is
 * also how a crashed writer is detected (see markInterrupted).
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { AcpThreadsError } from "../errors";

export interface LockInfo {
  pid: number;
  host: string;
  startedAt: string;
}

export const lockPathFor = (file: string) => `${file}.lock`;
const heldHere = new Set<string>();

export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function readLock(file: string): LockInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(lockPathFor(file), "utf8")) as LockInfo;
    return typeof info.pid === "number" ? info : undefined;
  } catch {
    return undefined;
  }
}

/** The live writer of `file`, if any (a lock on another host counts as live: we cannot probe its pid). */
export function liveWriter(file: string): LockInfo | undefined {
  const info = readLock(file);
  if (!info) return undefined;
  if (info.host !== hostname()) return info;
  if (info.pid === process.pid) return heldHere.has(file) ? info : undefined;
  return pidAlive(info.pid) ? info : undefined;
}

export function acquireLock(file: string): () => void {
  const path = lockPathFor(file);
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, "wx", 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = liveWriter(file);
      if (owner) {
        throw new AcpThreadsError(
          "usage",
          `thread file ${file} is already being written by process ${owner.pid}${owner.host !== hostname() ? ` on ${owner.host}` : ""}; only one writer is allowed`,
          { pid: owner.pid },
        );
      }
      // stale lock (writer died, or unreadable): remove and race for it again with O_EXCL
      rmSync(path, { force: true });
      continue;
    }
    const info: LockInfo = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
    writeSync(fd, JSON.stringify(info));
    closeSync(fd);
    heldHere.add(file);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      heldHere.delete(file);
      if (readLock(file)?.pid === process.pid) rmSync(path, { force: true });
    };
  }
  throw new AcpThreadsError("usage", `could not lock thread file ${file}: another writer keeps taking it`);
}
