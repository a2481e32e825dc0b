/**
 * What a turn's first stat walk may take in while the turn already works (#36 item 6, tracker.ts
 * `sync({ since })`): `since` is the workspace file system's time at the turn's start (turn-clock.ts), and a
 * change's ctime comes from the same clock. One `SinceTurn` per such sync (it caches the folders' ctimes).
 */
import { lstat } from "node:fs/promises";
import type { Stats } from "node:fs";
import { dirname, join } from "node:path";

export class SinceTurn {
  readonly #folders = new Map<string, Promise<number | undefined>>();

  constructor(
    readonly root: string,
    readonly since: number,
  ) {}

  /**
   * Whether `rel` (its stat `st`, undefined: gone; `knownIno`: the inode the tracker knew it by) may have changed
   * after `since`. A file's ctime moves with every change of it and when it is renamed: the same file (its inode)
   * with an earlier ctime is as it was at `since`. A file new here, replaced or gone may have come or gone with a
   * folder on its way from the root (a folder moved in from outside keeps its files' ctimes): then any of those
   * folders with a later ctime (an entry created, removed or renamed in it, or it renamed) leaves it unsure too.
   */
  async changed(rel: string, st: Stats | undefined, knownIno: number | undefined): Promise<boolean> {
    if (st && st.ctimeMs > this.since) return true;
    if (st && st.ino === knownIno) return false;
    for (let dir = dirname(rel); ; dir = dirname(dir)) {
      const d = dir === "." ? "" : dir;
      if (((await this.#ctimeOf(d)) ?? -Infinity) > this.since) return true;
      if (!d) return false;
    }
  }

  /** After reading `rel` at stat `st`: whether it is still `st` and did not change after `since`. */
  async unchanged(rel: string, st: Stats): Promise<boolean> {
    const now = await lstat(join(this.root, rel)).catch(() => undefined);
    return (
      !!now && now.ctimeMs <= this.since && now.size === st.size && now.mtimeMs === st.mtimeMs && now.ino === st.ino
    );
  }

  #ctimeOf(dir: string): Promise<number | undefined> {
    let ctime = this.#folders.get(dir);
    if (!ctime) {
      ctime = lstat(join(this.root, dir)).then(
        (s) => s.ctimeMs,
        () => undefined,
      );
      this.#folders.set(dir, ctime);
    }
    return ctime;
  }
}
