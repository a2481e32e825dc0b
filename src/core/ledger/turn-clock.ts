/**
 * The workspace file system's own clock, read when a turn starts (#36 item 6), so that the turn's first stat walk
 * can run while the agent already works (tracker.ts, `sync({ since })`). A change's ctime comes from that clock:
 * every write, truncation, rename, link or attribute change of a file sets its ctime to the file system's time,
 * and utimes cannot set it back. So with `since` read here:
 * - a file whose ctime is at most `since` has not changed since the turn started (it was as the walk saw it);
 * - a file whose ctime is after it changed after the turn started, maybe also before: the walk cannot say whose
 *   content it sees, so the tracker keeps the version it knew and lets the turn's end decide.
 * `now()` touches a file of its own (utimes sets its ctime), reads that ctime, and touches it again until the
 * clock has moved past it (within one clock tick: the kernel's timestamps are coarse): whatever is written after
 * `now()` resolves then has a ctime after the returned value. That holds only on the same file system as the
 * workspace (the same clock and the same timestamp granularity) and where ctime comes from this machine's clock:
 * Linux, local file systems (walk-cache.ts's `trustsFolders`). Elsewhere `open` gives undefined and the turn's
 * first walk runs before the turn, as it always did.
 */
import { lstat, open, statfs, utimes } from "node:fs/promises";
import { join } from "node:path";
import { trustedFsType } from "./walk-cache";

/** Clock reads before giving up (a clock that never moves, a file system that ignores utimes). */
const MAX_TOUCHES = 1000;

export class TurnClock {
  readonly #path: string;

  private constructor(path: string) {
    this.#path = path;
  }

  /**
   * The clock of the file system holding `root`, read through a file in `dir` (the ledger's own folder): undefined
   * unless both are on the same local Linux file system.
   */
  static async open(
    root: string,
    dir: string,
    platform: NodeJS.Platform = process.platform,
  ): Promise<TurnClock | undefined> {
    if (platform !== "linux") return undefined;
    try {
      const path = join(dir, "turn-clock");
      await (await open(path, "a", 0o600)).close();
      const [ws, own, fs] = await Promise.all([lstat(root), lstat(path), statfs(root)]);
      return ws.dev === own.dev && trustedFsType(Number(fs.type)) ? new TurnClock(path) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The file system's time now (a ctime, ms), once the clock has moved past it; undefined if it never did. */
  async now(): Promise<number | undefined> {
    try {
      const since = await this.#touch();
      for (let i = 0; i < MAX_TOUCHES; i++) if ((await this.#touch()) > since) return since;
    } catch {
      // the file went away or cannot be touched: the turn's first walk runs before the turn
    }
    return undefined;
  }

  async #touch(): Promise<number> {
    const t = new Date();
    await utimes(this.#path, t, t);
    return (await lstat(this.#path)).ctimeMs;
  }
}
