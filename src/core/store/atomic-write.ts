/**
 * Whole-file writes: tmp → fsync → rename → fsync(dir), mode 0600. A crash leaves either the old file or the
 * new one, never a half-written mix (used by snapshots, index exports and the permissions file).
 */
import { closeSync, fsyncSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import { mkdir, open, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { renameReplacing, renameReplacingAsync } from "../platform/fs";

const tmpFor = (path: string) =>
  join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`);

export function writeFileAtomic(path: string, data: string | Uint8Array, opts: { mode?: number } = {}): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = tmpFor(path);
  const fd = openSync(tmp, "wx", opts.mode ?? 0o600);
  try {
    const buf = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameReplacing(tmp, path); // Windows: retried while another process briefly holds the target
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(dir);
}

/**
 * `writeFileAtomic` with every file call on libuv's thread pool, for the extension host's thread (which must not
 * wait on the disk). Same steps, same guarantees: the file is whole or untouched once the promise settles.
 */
export async function writeFileAtomicAsync(path: string, data: FileData, opts: { mode?: number } = {}): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await replaceFileAsync(path, data, opts.mode ?? 0o600);
  await fsyncDirAsync(dir);
}

/**
 * What an asynchronous whole-file write writes: the bytes, or their parts as they are made (each written as it
 * comes, so a big file is never one string on the caller's thread).
 */
export type FileData = string | Uint8Array | AsyncIterable<string>;

/**
 * The middle of `writeFileAtomicAsync`: a temporary file beside `path`, written and fsynced, renamed over `path`;
 * removed again on a failure. The folder exists, and its fsync is the caller's (a blob store fsyncs its folders once).
 */
export async function replaceFileAsync(path: string, data: FileData, mode: number): Promise<void> {
  const tmp = tmpFor(path);
  const fh = await open(tmp, "wx", mode);
  try {
    if (typeof data === "string" || data instanceof Uint8Array) await fh.writeFile(data);
    else for await (const part of data) await fh.write(part);
    await fh.sync();
  } catch (err) {
    await fh.close();
    await rm(tmp, { force: true });
    throw err;
  }
  await fh.close();
  try {
    await renameReplacingAsync(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** `fsyncDir` on the thread pool. */
export async function fsyncDirAsync(dir: string): Promise<void> {
  const fh = await open(dir, "r").catch(() => undefined);
  if (!fh) return;
  await fh.sync().catch(() => undefined); // best effort, as fsyncDir
  await fh.close();
}

/** Makes a rename durable; some filesystems refuse to open a directory for fsync, which we tolerate. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
