/**
 * Noting the fs calls a writer makes, on real files: fs.fsync, fs.fsyncSync, fs.close (with their fd) and the
 * removal of a thread's lock file off the thread ("unlock"), in order. node:fs's own functions are wrapped and still
 * run; `failFsync` makes fs.fsync fail with EIO instead.
 */
import fs from "node:fs";
import { lockPathFor } from "../../../../src/core/store/file-lock";

type Fn = (...args: never[]) => unknown;
type Cb = (err: NodeJS.ErrnoException | null) => void;
const fsAny = fs as unknown as Record<string, Fn>;

export async function watchingFs<T>(
  fn: (calls: string[]) => Promise<T> | T,
  opts: { failFsync?: boolean } = {},
): Promise<T> {
  const calls: string[] = [];
  const saved = { fsync: fsAny.fsync!, fsyncSync: fsAny.fsyncSync!, close: fsAny.close! };
  const savedRm = fs.promises.rm;
  fsAny.fsync = ((fd: number, cb: Cb) => {
    calls.push(`fsync ${fd}`);
    if (opts.failFsync) return setImmediate(() => cb(Object.assign(new Error("EIO: i/o error"), { code: "EIO" })));
    (saved.fsync as (fd: number, cb: Cb) => void)(fd, (err) => {
      calls.push(`fsynced ${fd}`);
      cb(err);
    });
  }) as Fn;
  fsAny.fsyncSync = ((fd: number) => {
    calls.push(`fsyncSync ${fd}`);
    return (saved.fsyncSync as (fd: number) => void)(fd);
  }) as Fn;
  fsAny.close = ((fd: number, cb: Cb) => {
    calls.push(`close ${fd}`);
    return (saved.close as (fd: number, cb: Cb) => void)(fd, cb);
  }) as Fn;
  fs.promises.rm = (async (path: string, o?: fs.RmOptions) => {
    if (String(path).endsWith(lockPathFor(".jsonl"))) calls.push("unlock");
    return savedRm(path, o);
  }) as typeof fs.promises.rm;
  try {
    return await fn(calls);
  } finally {
    Object.assign(fsAny, saved);
    fs.promises.rm = savedRm;
  }
}

/** The fsyncs made on the caller's thread among `calls`. */
export const syncFsyncs = (calls: string[]) => calls.filter((c) => c.startsWith("fsyncSync"));
