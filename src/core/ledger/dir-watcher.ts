/**
 * One non-recursive `fs.watch` per directory the ignore rules let through (inotify on Linux), so ignored trees
 * such as node_modules cost nothing — Node's recursive watch would descend into them. Every event just marks a
 * workspace-relative path dirty; the tracker looks at dirty paths at the next turn boundary. If the OS refuses a
 * watch (inotify limit), `add` says "refused" and keeps the watches it has; the tracker walks the folders left
 * without one (watch-set.ts).
 */
import { watch, type FSWatcher } from "node:fs";
import { HOST_PLATFORM, type Platform } from "../platform/host";
import { childRel } from "./rel-path";

export class DirWatcher {
  readonly #root: string;
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #onPath: (rel: string) => void;
  readonly #platform: Platform;
  readonly #limit: number;
  #refused: string | undefined;

  /**
   * `onPath` gets `/`-separated workspace-relative paths on every platform. `limit`: at most this many watches
   * (tests and the bench: the OS's limit, simulated).
   */
  constructor(root: string, onPath: (rel: string) => void, platform: Platform = HOST_PLATFORM, limit = Infinity) {
    this.#root = root;
    this.#onPath = onPath;
    this.#platform = platform;
    this.#limit = limit;
  }

  get size(): number {
    return this.#watchers.size;
  }

  watching(dir: string): boolean {
    return this.#watchers.has(dir);
  }

  /** Why the OS last refused a watch, or undefined. */
  get refused(): string | undefined {
    return this.#refused;
  }

  /**
   * Starts watching `dir` (workspace-relative, `/`-separated, "" = root): true, or "refused" when the OS refused
   * (the inotify limit; `refused` says why), the other watches staying.
   */
  add(dir: string): true | "refused" {
    if (this.#watchers.has(dir)) return true;
    if (this.#watchers.size >= this.#limit) {
      this.#refused = `cannot watch ${dir || "."}: the limit of ${this.#limit} watches`;
      return "refused";
    }
    try {
      const w = watch(this.#platform.path.join(this.#root, dir), { persistent: false }, (_event, name) => {
        // no name: something in the directory changed; the tracker rescans it
        this.#onPath(name ? childRel(dir, String(name), this.#platform) : dir);
      });
      w.on("error", () => {
        this.#close(dir);
        this.#onPath(dir);
      });
      this.#watchers.set(dir, w);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return true; // gone already; its parent reports it
      this.#refused = `cannot watch ${dir || "."}: ${(err as Error).message}`;
      return "refused";
    }
  }

  /** Stops watching `dir` and everything below it. */
  remove(dir: string): void {
    for (const d of [...this.#watchers.keys()]) if (d === dir || d.startsWith(`${dir}/`) || !dir) this.#close(d);
  }

  #close(dir: string): void {
    this.#watchers.get(dir)?.close();
    this.#watchers.delete(dir);
  }

  dispose(): void {
    for (const w of this.#watchers.values()) w.close();
    this.#watchers.clear();
  }
}
