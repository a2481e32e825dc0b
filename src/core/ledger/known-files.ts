/**
 * The tracker's file table (tracker.ts): for every file of the workspace it tracks, the stat it last took and the
 * version it knows (the content's id), and which of them are racy (racy.ts). It reads a file when its stat says it
 * changed (or when racy), keeps the version in the blob store (not durable: a turn's `keep` makes it so), and
 * reports the change as a delta. It does not decide which files to look at: the tracker's syncs do.
 */
import { lstat, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Stats } from "node:fs";
import { keepVersion, type BlobStore } from "./blob-store";
import { sameContent, type FileState } from "./content";
import { RacyFiles } from "./racy";
import type { SinceTurn } from "./since-turn";
import { statInfo, type StatInfo } from "./walk";
import { inParallel } from "../util/at-once";

/** A file that changed between two syncs; `null` = absent. Paths are relative to the tracker's root. */
export interface FileDelta {
  rel: string;
  before: FileState | null;
  after: FileState | null;
}

export interface Entry extends StatInfo {
  state: FileState;
  /** The content is only in git's object database (a clean tracked file of the baseline). */
  inGit?: boolean;
}

/** Files read at once (the baseline's reads, a sync's looks). */
export const READ_CONCURRENCY = 16;

export class KnownFiles {
  readonly #root: string;
  readonly #blobs: BlobStore;
  readonly #maxFileBytes: number;
  readonly #entries = new Map<string, Entry>();
  /** Files whose last stat cannot show a change in the same tick: read again at every sync. */
  readonly racy = new RacyFiles();

  constructor(root: string, blobs: BlobStore, maxFileBytes: number) {
    this.#root = root;
    this.#blobs = blobs;
    this.#maxFileBytes = maxFileBytes;
  }

  get size(): number {
    return this.#entries.size;
  }
  get(rel: string): Entry | undefined {
    return this.#entries.get(rel);
  }
  has(rel: string): boolean {
    return this.#entries.has(rel);
  }
  keys(): IterableIterator<string> {
    return this.#entries.keys();
  }
  /** The table itself, read-only (the manifest cache saves it). */
  get entries(): ReadonlyMap<string, Entry> {
    return this.#entries;
  }

  /** Takes in an entry known without a look (a clean tracked file of git's index, a manifest cache's row). */
  set(rel: string, entry: Entry): void {
    this.#entries.set(rel, entry);
  }

  clear(): void {
    this.#entries.clear();
    this.racy.clear();
  }

  /**
   * A clean tracked file takes the walk's stat. Not marked racy even when recent (a checkout): git's status
   * compared a racy index entry's content, and reading the file would compare its working copy with the index's
   * blob id, which differ under eol conversion or a clean filter: a change that is not one.
   */
  adoptStat(rel: string, st: StatInfo): void {
    const e = this.#entries.get(rel);
    if (e && e.mtimeMs < 0) this.#entries.set(rel, { ...e, ...st, state: { ...e.state, size: st.size } });
  }

  /** The baseline's reads: each file that is one now is read and known, without a delta. */
  async readAll(rels: readonly string[]): Promise<void> {
    await inParallel(rels, READ_CONCURRENCY, async (rel) => {
      const st = await lstat(join(this.#root, rel)).catch(() => undefined);
      if (!st?.isFile()) return;
      this.#entries.set(rel, { ...statInfo(st), state: await this.#readState(rel, st) });
      this.racy.stamped(rel, st);
    });
  }

  /**
   * A look at file `rel` at its stat `st` (`prev`: the entry before): read when the stat changed or it is racy, a
   * delta when its content did. With `since`, false when the file changed between the stat and the read, or after
   * the turn's start: it is left as it was known ("unsure"), for the next sync.
   */
  async update(
    rel: string,
    st: Stats,
    prev: Entry | undefined,
    deltas: FileDelta[],
    since?: SinceTurn,
  ): Promise<boolean> {
    this.racy.saw(rel);
    const same = prev && prev.size === st.size && prev.mtimeMs === st.mtimeMs && prev.ino === st.ino;
    if (same && !this.racy.has(rel)) return true;
    const state = await this.#readState(rel, st);
    // read while the turn may be writing: the content is the one of `st` only if the file did not change since
    if (since && !(await since.unchanged(rel, st))) return false;
    this.#entries.set(rel, {
      ...statInfo(st),
      state,
      ...(prev?.inGit && sameContent(prev.state, state) ? { inGit: true } : {}),
    });
    this.racy.stamped(rel, st);
    if (!prev || !sameContent(prev.state, state)) deltas.push({ rel, before: prev?.state ?? null, after: state });
    return true;
  }

  /** `rel` is no longer a file: a delta if it was known; `folder` (it was a watched folder): every file below it too. */
  gone(rel: string, deltas: FileDelta[], folder = false): void {
    const prev = this.#entries.get(rel);
    this.racy.delete(rel);
    if (prev) {
      this.#entries.delete(rel);
      deltas.push({ rel, before: prev.state, after: null });
    }
    if (!folder) return;
    for (const [p, e] of [...this.#entries]) {
      if (!p.startsWith(`${rel}/`)) continue;
      this.#entries.delete(p);
      this.racy.delete(p);
      deltas.push({ rel: p, before: e.state, after: null });
    }
  }

  async #readState(rel: string, st: Stats): Promise<FileState> {
    if (st.size > this.#maxFileBytes) return { id: null, size: st.size, stored: false, tooLarge: true };
    let buf: Buffer;
    try {
      buf = await readFile(join(this.#root, rel));
    } catch {
      return { id: null, size: st.size, stored: false, tooLarge: true };
    }
    return keepVersion(this.#blobs, buf, { durable: false });
  }
}
