/**
 * The tracker's directory watches (tracker.ts, watch mode): which folders to watch, and the paths their events
 * mark dirty until the next sync takes them. Every folder the ignore rules let through is watched, not only
 * those holding a known file: a file written into an empty folder (or one holding only files git does not list)
 * is a turn's change too; and the folders of files tracked below an ignored folder. When the OS refuses a watch
 * (the inotify limit), the watches it granted stay and the folders left without one are stat-walked at every
 * sync (#36 item 6): `unwatched` names the tops of those subtrees (every folder below an unwatched one is
 * unwatched too: parents are watched first, and no watch is asked for after a refusal).
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { DirWatcher } from "./dir-watcher";

export class WatchSet {
  readonly #root: string;
  readonly #watcher: DirWatcher;
  readonly #dirty = new Set<string>();
  readonly #unwatched: string[] = [];

  private constructor(root: string, limit?: number) {
    this.#root = root;
    this.#watcher = new DirWatcher(root, (rel) => this.#dirty.add(rel), undefined, limit);
  }

  /**
   * Watches `listed` (every folder the ignore rules let through; "" = the root is added) and the folders of
   * `tracked` files, parents first, until the OS refuses a watch; the rest are `unwatched`. `limit`: at most this
   * many watches (tests, the bench: the OS's limit, simulated).
   */
  static start(root: string, listed: readonly string[], tracked: Iterable<string>, limit?: number): WatchSet {
    const dirs = new Set(["", ...listed]);
    for (const rel of tracked) {
      for (let i = rel.lastIndexOf("/"); i > 0; i = rel.lastIndexOf("/", i - 1)) {
        const d = rel.slice(0, i);
        if (dirs.has(d)) break;
        dirs.add(d);
      }
    }
    const set = new WatchSet(root, limit);
    let refused = false;
    // sorted, a folder comes before the folders below it ("a" < "a-b" < "a/b")
    for (const d of [...dirs].sort()) {
      refused ||= set.#watcher.add(d) === "refused";
      if (refused) set.#leave(d);
    }
    return set;
  }

  /** Why the OS refused a watch, or undefined when every folder is watched. */
  get refused(): string | undefined {
    return this.#watcher.refused;
  }

  /** The tops of the folders left without a watch ("" = all of them): walked at every sync. */
  get unwatched(): readonly string[] {
    return this.#unwatched;
  }

  /** Whether `rel` is in a folder left without a watch. */
  inUnwatched(rel: string): boolean {
    return this.#unwatched.some((top) => !top || rel.startsWith(`${top}/`));
  }

  get hasDirty(): boolean {
    return this.#dirty.size > 0;
  }

  /** The paths marked dirty since the last call, sorted; the set is left empty. */
  takeDirty(): string[] {
    const batch = [...this.#dirty].sort();
    this.#dirty.clear();
    return batch;
  }

  watching(rel: string): boolean {
    return this.#watcher.watching(rel);
  }

  /** Starts watching a folder; false when the OS refused (the folder is then walked at every sync). */
  add(rel: string): boolean {
    const added = this.#watcher.add(rel);
    if (added === "refused") this.#leave(rel);
    return added === true;
  }

  /** A folder without a watch: one more top to walk unless a top above it is walked already. */
  #leave(rel: string): void {
    if (this.#unwatched.some((top) => top === rel || !top || rel.startsWith(`${top}/`))) return;
    for (let i = this.#unwatched.length - 1; i >= 0; i--)
      if (!rel || this.#unwatched[i]!.startsWith(`${rel}/`)) this.#unwatched.splice(i, 1);
    this.#unwatched.push(rel);
  }

  /** Stops watching `rel` and everything below it. */
  remove(rel: string): void {
    this.#watcher.remove(rel);
  }

  /**
   * A new or rescanned folder (watched already): its unwatched sub-folders and every file in it are marked
   * dirty, and so are the `known` files directly in it that it no longer holds.
   */
  async rescan(rel: string, known: Iterable<string>): Promise<void> {
    const names = await readdir(join(this.#root, rel), { withFileTypes: true }).catch(() => []);
    const present = new Set<string>();
    for (const d of names) {
      const p = rel ? `${rel}/${d.name}` : d.name;
      present.add(p);
      if (d.isDirectory() ? !this.#watcher.watching(p) : d.isFile()) this.#dirty.add(p);
    }
    for (const p of known) if (parentOf(p) === rel && !present.has(p)) this.#dirty.add(p);
  }

  dispose(): void {
    this.#watcher.dispose();
  }
}

function parentOf(rel: string): string {
  const i = rel.lastIndexOf("/");
  return i < 0 ? "" : rel.slice(0, i);
}

/**
 * Lets watch events already queued by the kernel reach us: a write that happened before now (the agent wrote
 * the file, then answered the turn) is queued on the inotify descriptor, which the next poll phase of the
 * event loop reads; `setImmediate` runs after that phase. Twice, for callers that are inside a poll phase.
 */
export async function settle(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise((r) => setImmediate(r));
}
