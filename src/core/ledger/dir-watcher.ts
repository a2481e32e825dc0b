/**
 * One non-recursive `fs.watch` per tracked directory (inotify on Linux), so ignored trees such as node_modules
 * cost nothing — Node's recursive watch would descend into them. Every event just marks a workspace-relative
 * path dirty; the tracker looks at dirty paths at the next turn boundary. If the OS refuses a watch (inotify
 * limit) the watcher reports `failed` and the tracker falls back to stat walks.
 */
import { watch, type FSWatcher } from "node:fs";
import { join } from "node:path";

export class DirWatcher {
  readonly #root: string;
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #onPath: (rel: string) => void;
  #failed: string | undefined;

  constructor(root: string, onPath: (rel: string) => void) {
    this.#root = root;
    this.#onPath = onPath;
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

  /** Starts watching `dir` (workspace-relative, "" = root). Returns false once watching has failed. */
  add(dir: string): boolean {
    if (this.#failed) return false;
    if (this.#watchers.has(dir)) return true;
    try {
      const w = watch(join(this.#root, dir), { persistent: false }, (_event, name) => {
        // no name: something in the directory changed; the tracker rescans it
        this.#onPath(name ? (dir ? `${dir}/${name}` : String(name)) : dir);
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
