/**
 * One non-recursive `fs.watch` per directory the ignore rules let through (inotify on Linux), so ignored trees
 * such as node_modules cost nothing — Node's recursive watch would descend into them. Every event just marks a
 * workspace-relative path dirty; the tracker looks at dirty paths at the next turn boundary. If the OS refuses a
 * watch (inotify limit) the watcher reports `failed` and the tracker falls back to stat walks.
 */
import { watch, type FSWatcher } from "node:fs";
import { HOST_PLATFORM, type Platform } from "../platform/host";
import { childRel } from "./rel-path";

export class DirWatcher {
  readonly #root: string;
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #onPath: (rel: string) => void;
  readonly #platform: Platform;
  #failed: string | undefined;

  /** `onPath` gets `/`-separated workspace-relative paths on every platform. */
  constructor(root: string, onPath: (rel: string) => void, platform: Platform = HOST_PLATFORM) {
    this.#root = root;
    this.#onPath = onPath;
    this.#platform = platform;
  }

  /** Why watching stopped working (then every sync must walk), or undefined. */
  get failed(): string | undefined {
    return this.#failed;
  }

  get size(): number {
    return this.#watchers.size;
  }

  watching(dir: string): boolean {
    return this.#watchers.has(dir);
  }

  /** Starts watching `dir` (workspace-relative, `/`-separated, "" = root). Returns false once watching has failed. */
  add(dir: string): boolean {
    if (this.#failed) return false;
    if (this.#watchers.has(dir)) return true;
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
      this.#failed = `cannot watch ${dir || "."}: ${(err as Error).message}`;
      this.dispose();
      return false;
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
