/**
 * The tracker's racy files (git's "racy clean"): a stat taken within `RACY_MS` of the file's mtime cannot show a
 * later change made in the same timestamp tick (same size, mtime and inode: a 1 s or 2 s file system, or two
 * writes within the kernel's coarse clock tick). Such a file is read again at every sync, and its content
 * compared, until a stat of it is older than that. The set also knows which files the current sync has looked
 * at already, so that a racy file is not read twice in one sync.
 */
import type { StatInfo } from "./walk";
import { RACY_MS } from "./walk-cache";

/** A stat taken at `now` of a file last changed within RACY_MS of it: a change in the same tick would not show. */
export const isRacy = (st: StatInfo, now: number): boolean => st.mtimeMs > now - RACY_MS;

export class RacyFiles {
  /** Files whose last stat was taken within RACY_MS of their mtime. */
  readonly #racy = new Set<string>();
  /** Files looked at in the current sync. */
  readonly #seen = new Set<string>();

  /** A sync starts: it has looked at nothing yet. */
  startSync(): void {
    this.#seen.clear();
  }

  /** The current sync looks at `rel` (its stat, and its content when it is racy). */
  saw(rel: string): void {
    this.#seen.add(rel);
  }

  /** Whether `rel`'s content is compared even when its stat did not change. */
  has(rel: string): boolean {
    return this.#racy.has(rel);
  }

  /** Notes whether a file's stat, just taken, can show a change made later in the same tick. */
  stamped(rel: string, st: StatInfo, now = Date.now()): void {
    if (isRacy(st, now)) this.#racy.add(rel);
    else this.#racy.delete(rel);
  }

  delete(rel: string): void {
    this.#racy.delete(rel);
  }

  clear(): void {
    this.#racy.clear();
  }

  /** The racy files, in the order they became racy. */
  paths(): IterableIterator<string> {
    return this.#racy.values();
  }

  /** The racy files the current sync has not looked at: no event or walk brought them up (their stat unchanged). */
  unseen(): string[] {
    return [...this.#racy].filter((rel) => !this.#seen.has(rel));
  }

  /** After a watch sync looked at every racy file: one it did not see is no longer a file (a folder now, say). */
  dropUnseen(): void {
    for (const rel of this.#racy) if (!this.#seen.has(rel)) this.#racy.delete(rel);
  }
}
