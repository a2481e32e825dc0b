/**
 * Content-addressed blobs of the edit ledger: `<dir>/<h[0:2]>/<h[2:]>`, one file per distinct content, shared
 * by every thread (deduplicated). The address is git's blob id (SHA-1 of `blob <size>\0<content>`), so a
 * tracked file's content can also be fetched from the repository's own object database by the same id.
 * Blobs are whole-file writes: tmp → fsync → rename, mode 0600. A read checks the content against its id, so
 * a torn or tampered blob reads as missing, never as wrong content.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, open, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

import { isBinary, type FileState } from "./content";
import { replaceFileAsync } from "../store/atomic-write";

const HASH_RE = /^[0-9a-f]{40}$/;

/** Git's blob id of `content`. */
export function blobId(content: Uint8Array): string {
  return createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
}

export const isBlobId = (s: unknown): s is string => typeof s === "string" && HASH_RE.test(s);

export class BlobStore {
  /** Ids this process stored or found (a put of a known id costs nothing). */
  readonly #known = new Set<string>();
  readonly #dirs = new Set<string>();

  constructor(readonly dir: string) {}

  pathOf(id: string): string {
    if (!isBlobId(id)) throw new Error(`'${id}' is not a blob id`);
    return join(this.dir, id.slice(0, 2), id.slice(2));
  }

  has(id: string): boolean {
    return isBlobId(id) && existsSync(this.pathOf(id));
  }

  /** `has` with the stat on libuv's thread pool (a baseline's cached rows, on the extension host). */
  async hasAsync(id: string): Promise<boolean> {
    return (
      isBlobId(id) &&
      stat(this.pathOf(id)).then(
        () => true,
        () => false,
      )
    );
  }

  /** The content, or undefined when the blob is missing or does not match its id. */
  get(id: string): Buffer | undefined {
    if (!isBlobId(id)) return undefined;
    let buf: Buffer;
    try {
      buf = readFileSync(this.pathOf(id));
    } catch {
      return undefined;
    }
    return checked(id, buf);
  }

  /** `get` with the read on libuv's thread pool (the window's hovers and rows). */
  async getAsync(id: string): Promise<Buffer | undefined> {
    if (!isBlobId(id)) return undefined;
    const buf = await readFile(this.pathOf(id)).catch(() => undefined);
    return buf && checked(id, buf);
  }

  getText(id: string): string | undefined {
    return this.get(id)?.toString("utf8");
  }

  async getTextAsync(id: string): Promise<string | undefined> {
    return (await this.getAsync(id))?.toString("utf8");
  }

  /**
   * Stores `content` (a no-op when it is there already) and returns its id. Durable puts go tmp → fsync →
   * rename. `durable: false` (baseline copies nothing refers to yet) writes in place without fsync; `sync`
   * makes such blobs durable once a ledger record refers to them, and a blob torn by a crash fails its id
   * check and reads as missing.
   */
  async put(content: Uint8Array, opts: { id?: string; durable?: boolean } = {}): Promise<string> {
    const id = opts.id ?? blobId(content);
    if (this.#known.has(id)) return id;
    const path = this.pathOf(id);
    const fan = id.slice(0, 2);
    if (!this.#dirs.has(fan)) {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      this.#dirs.add(fan);
    }
    const there = await stat(path).then(
      (s) => s.size === content.length,
      () => false,
    );
    if (!there) {
      if (opts.durable === false) await this.#writeInPlace(path, content);
      else await this.#writeDurably(path, content);
    }
    this.#known.add(id);
    return id;
  }

  async #writeInPlace(path: string, content: Uint8Array): Promise<void> {
    try {
      await writeFile(path, content, { flag: "wx", mode: 0o600 });
    } catch (err) {
      // another writer got there first (same content by construction) or a torn leftover: replace it whole
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      await this.#writeDurably(path, content);
    }
  }

  async #writeDurably(path: string, content: Uint8Array): Promise<void> {
    await replaceFileAsync(path, content, 0o600);
  }

  /** fsyncs blobs written with `durable: false` (cheap when the kernel flushed them already). */
  async sync(ids: Iterable<string>): Promise<void> {
    await Promise.all(
      [...new Set(ids)].map(async (id) => {
        const fh = await open(this.pathOf(id), "r").catch(() => undefined);
        if (!fh) return;
        try {
          await fh.sync();
        } finally {
          await fh.close();
        }
      }),
    );
  }
}

/** A blob read back: its content when it matches its id (a torn or tampered one reads as missing). */
const checked = (id: string, buf: Buffer): Buffer | undefined => (blobId(buf) === id ? buf : undefined);

/** Keeps one version of a file: stored unless binary (binary versions are noted by id and size only). */
export async function keepVersion(blobs: BlobStore, buf: Buffer, opts: { durable?: boolean } = {}): Promise<FileState> {
  const id = blobId(buf);
  if (isBinary(buf)) return { id, size: buf.length, stored: false, binary: true };
  await blobs.put(buf, { id, durable: opts.durable });
  return { id, size: buf.length, stored: true };
}
