/**
 * Every thread's metadata in memory, for the editor's sessions tree and panels: loaded once from the threads
 * index (in a worker thread, catalog-load.ts), then kept current incrementally, off the host's thread. A thread file that changes is marked by the
 * store's own events (a handle closed, a delete, a restore) or by a watcher on the threads folder (another window
 * or the CLI wrote it); the next `list` reads only the marked files, asynchronously and from where it stopped
 * (their tail). Each `list` also lists the folder once, asynchronously, so a thread file that appeared or went
 * is seen even before its watcher event. An unchanged tree costs no sync file call and no stat per thread.
 *
 * Threads this process is writing are not re-read on each append (the live session has their state); they are
 * read once when their handle closes.
 */
import { watch, type FSWatcher } from "node:fs";
import { mkdir, readdir } from "node:fs/promises";
import { Emitter, type Disposable } from "../lifecycle";
import { nullLogger, type Logger } from "../log";
import { startedFromOf, type ThreadMetadata } from "../model/metadata";
import { isInside } from "../platform/paths";
import { isThreadId } from "../model/thread-id";
import type { ThreadStore } from "../store/thread-store";
import { FIRST_ROWS, loadCatalogRows, loadCatalogRowsInWorker, type CatalogRow } from "./catalog-load";
import { readCatalogRow, type CatalogFileRow } from "./catalog-read";
import { coldCatalogRows } from "./threads-cold";
import { recentCatalogRows } from "./threads-recent";
import type { ThreadQuery } from "./threads-index";

type Row = CatalogFileRow;

/**
 * The thread files' walk for the first rows has this long before the index's worker starts next to it (its first
 * message then paints if it comes first). Not at once: next to the worker's start (SQLite's WASM, the sync) the
 * walk took longer on 2 busy cores than alone (stop 37's figures), and the recent-threads file's read is never
 * raced (it answers in 40-200 ms).
 */
const COLD_GRACE_MS = 200;

export interface CatalogOptions {
  logger?: Logger;
  /** Watch the threads folder for other processes' writes (default true). */
  watch?: boolean;
  /** At most one change event per this many ms (default 500). */
  throttleMs?: number;
  /** The first load's worker script (dist/catalog-worker.js); without it the load runs on the caller's thread. */
  worker?: string;
  /**
   * With a worker and no recent-threads file that answers, the first rows from the newest thread files read on
   * this thread (default true; false: from the worker's first message, the bench's baseline).
   */
  firstFromFiles?: boolean;
  /**
   * Start the worker next to the thread files' read when it has not answered within `COLD_GRACE_MS` (default
   * true; false: once it ended, stop 36's order: the bench's baseline only).
   */
  raceWorker?: boolean;
}

export class ThreadCatalog implements Disposable {
  readonly #store: ThreadStore;
  readonly #logger: Logger;
  readonly #opts: CatalogOptions;
  readonly #rows = new Map<string, Row>();
  readonly #dirty = new Set<string>();
  /** Threads that failed to read: not tried again until their file changes. */
  readonly #failed = new Set<string>();
  readonly #changed = new Emitter<void>();
  /** Fires (throttled) when a thread file changed: a `list` now would answer differently. */
  readonly onDidChange = this.#changed.event;
  /** The first load's newest rows are in (`first` lists answer from them), and all of them. */
  #loaded: { first: Promise<void>; all: Promise<void> } | undefined;
  /**
   * The first load's other rows have not arrived yet: a thread file the catalog has no row for is not new (its row
   * is on its way; never read one by one, #36). New threads meanwhile are marked by the watcher and the store.
   */
  #partial = true;
  /** While partial: the first rows are every thread last active after this (undefined: every thread). */
  #partialBefore: string | undefined;
  /** Rows from the recent-threads file, until the index's own arrive. */
  readonly #early = new Set<string>();
  #applying: Promise<void> | undefined;
  #watcher: FSWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #subs: Disposable[] = [];
  #disposed = false;

  constructor(store: ThreadStore, opts: CatalogOptions = {}) {
    this.#store = store;
    this.#opts = opts;
    this.#logger = opts.logger ?? nullLogger;
    this.#subs.push(store.onDidChange((id) => this.changed(id)));
  }

  /** How many threads the catalog holds in memory (the long-day bench's breakdown). */
  get size(): number {
    return this.#rows.size;
  }

  /** Marks a thread as changed (read again on the next `list`). */
  changed(threadId: string): void {
    if (!isThreadId(threadId) || this.#disposed) return;
    this.#failed.delete(threadId);
    this.#dirty.add(threadId);
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      if (!this.#disposed) this.#changed.fire();
    }, this.#opts.throttleMs ?? 500);
  }

  /** Marks every thread as changed (an explicit refresh): each is stat'ed again on the next `list`. */
  rescan(): void {
    for (const id of this.#rows.keys()) this.#dirty.add(id);
  }

  /**
   * The metadata of a thread as last read; undefined before the first `list`, for an unknown thread, and for one
   * whose file changed since it was read (the caller reads the file once rather than show what is no longer true).
   */
  get(threadId: string): ThreadMetadata | undefined {
    return this.#dirty.has(threadId) ? undefined : this.#rows.get(threadId)?.meta;
  }

  /** Matching threads, most recent activity first. Reads only what changed since the last call. */
  async list(q: ThreadQuery = {}): Promise<ThreadMetadata[]> {
    return (await this.#list(q, false)).threads;
  }

  /**
   * `list`'s answer as soon as the first load's newest rows are in (the Sessions view's first paint, #36), and
   * while the others are on their way, `partialBefore`: threads last active at or before it may be missing (the
   * rows in are every thread after it). `onDidChange` fires when the others arrive.
   */
  listFirst(q: ThreadQuery = {}): Promise<{ threads: ThreadMetadata[]; partialBefore?: string }> {
    return this.#list(q, true);
  }

  async #list(q: ThreadQuery, first: boolean): Promise<{ threads: ThreadMetadata[]; partialBefore?: string }> {
    const loaded = (this.#loaded ??= this.#load());
    await (first ? loaded.first : loaded.all);
    await this.#scanFolder();
    // until nothing is marked and no read is under way: a read another list started may hold a thread this list's
    // folder listing found (its apply took the marks first); answering before it ends left a just-written thread
    // out of the Sessions view (VS Code 1.96's host suite, stop 33)
    while (this.#dirty.size || this.#applying)
      await (this.#applying ??= this.#apply().finally(() => (this.#applying = undefined)));
    const out: ThreadMetadata[] = [];
    for (const { meta } of this.#rows.values()) if (matches(meta, q)) out.push(meta);
    out.sort((a, b) =>
      a.lastActivity < b.lastActivity ? 1 : a.lastActivity > b.lastActivity ? -1 : a.threadId < b.threadId ? 1 : -1,
    );
    const threads = q.limit ? out.slice(0, Math.max(1, Math.floor(q.limit))) : out;
    return this.#partial && this.#partialBefore !== undefined
      ? { threads, partialBefore: this.#partialBefore }
      : { threads };
  }

  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
    this.#watcher?.close();
    for (const s of this.#subs.splice(0)) s.dispose();
    this.#changed.dispose();
  }

  /**
   * Once: the watcher, then the rows of the threads index (synced), in a worker thread when the catalog has one
   * (every file call of the sync is synchronous); a thread written meanwhile is marked by the watcher. The newest
   * rows come first (`first`): from the recent-threads file (the threads changed since it was written marked, so
   * the first list reads them before it answers), else from whichever answers first (stop 37) of the newest thread
   * files read here (threads-cold.ts: a first run, a damaged file, a folder changed without a journal line) and
   * the worker's first message (started next to them once they are slow). The others after (`all`, then a change
   * event for the lists answered early).
   */
  #load(): { first: Promise<void>; all: Promise<void> } {
    let firstIn!: () => void;
    const first = new Promise<void>((resolve) => (firstIn = resolve));
    let answeredEarly = false;
    /**
     * `before`: the rows are every thread last active after it (undefined: every thread). A part that comes after
     * every row is in adds nothing; one that comes after another part widens what is covered (never narrows it).
     */
    const early = (rows: CatalogRow[], from: "recent" | "index" | "read", before: string | undefined) => {
      if (!this.#partial) return;
      this.#add(rows, from);
      this.#covered(before);
      answeredEarly = true;
      firstIn();
    };
    const all = (async () => {
      if (this.#opts.watch !== false) await this.#watch();
      const worker = this.#opts.worker;
      let rest: CatalogRow[] | undefined;
      if (worker) {
        const start = () =>
          loadCatalogRowsInWorker(worker, this.#store.home, (rows) =>
            early(rows, "index", rows.length < FIRST_ROWS ? undefined : oldestOf(rows)),
          );
        let indexed: Promise<CatalogRow[]> | undefined;
        const race = () => {
          if (indexed || this.#disposed || this.#opts.raceWorker === false) return;
          indexed = start();
          indexed.catch(() => undefined); // met below, after the first rows from the disk are tried
        };
        await this.#firstFromDisk(early, () => answeredEarly, race);
        try {
          rest = await (indexed ?? start());
        } catch (err) {
          // disposed meanwhile (the window closed; a test ended and its home went): nothing to load, and the
          // index's synchronous load on this thread would only block it (the first rows may have come from the
          // thread files long before the worker ended)
          if (this.#disposed) return void firstIn();
          this.#logger.warn("the thread catalog worker failed; loading the threads index on this thread", err);
        }
      }
      rest ??= await loadCatalogRows(this.#store);
      this.#add(rest, "index");
      this.#partial = false;
      this.#partialBefore = undefined;
      this.#early.clear();
      firstIn();
      if (answeredEarly && !this.#disposed) this.#changed.fire();
    })();
    all.catch(() => firstIn()); // `first` waiters then meet the failure through `all`
    return { first: first.then(() => (this.#partial && this.#rows.size ? undefined : all)), all };
  }

  /**
   * The first rows without the index: the recent-threads file, else (unless `firstFromFiles` is off) the newest
   * thread files; `race` starts the worker when their walk has not answered within `COLD_GRACE_MS`, and the walk
   * stops once `answered` (the worker's first message came meanwhile). Never fails: the worker's rows answer then.
   */
  async #firstFromDisk(
    early: (rows: CatalogRow[], from: "recent" | "read", before: string | undefined) => void,
    answered: () => boolean,
    race: () => void,
  ): Promise<void> {
    const recent = await recentCatalogRows(this.#store).catch(() => undefined);
    if (this.#disposed || answered()) return;
    if (recent) {
      for (const id of recent.changed) this.#dirty.add(id);
      return early(recent.rows, "recent", recent.complete ? undefined : oldestOf(recent.rows));
    }
    if (this.#opts.firstFromFiles === false) return;
    const stop = () => this.#disposed || answered();
    const grace = setTimeout(race, COLD_GRACE_MS);
    const cold = await coldCatalogRows(this.#store, stop)
      .catch(() => undefined)
      .finally(() => clearTimeout(grace));
    if (cold && !stop()) early(cold.rows, "read", cold.before);
  }

  /**
   * What the first rows in cover: every thread last active after `before` (undefined: every thread); the union
   * of two first parts (the recent-threads file's or the files read here, and the worker's first message) covers
   * what the older of their bounds does.
   */
  #covered(before: string | undefined): void {
    if (before === undefined) return void (this.#partialBefore = undefined);
    if (this.#partialBefore === undefined || before < this.#partialBefore) this.#partialBefore = before;
  }

  /**
   * Rows of the first load. A thread this catalog read itself since (or read for the first rows: "read") keeps its
   * own row (newer than the index's sync); a row from the recent-threads file gives way to the index's (synced
   * after the file was checked).
   */
  #add(rows: CatalogRow[], from: "recent" | "index" | "read"): void {
    for (const { id, ...row } of rows) {
      if (this.#rows.has(id) && !this.#early.has(id)) continue;
      this.#rows.set(id, row);
      if (from === "recent") this.#early.add(id);
      else this.#early.delete(id);
    }
  }

  /** Thread files that appeared or went since the last look (one async folder listing). */
  async #scanFolder(): Promise<void> {
    const names = await readdir(this.#store.threadsDir).catch(() => [] as string[]);
    const ids = new Set<string>();
    for (const n of names) if (n.endsWith(".jsonl") && isThreadId(n.slice(0, -6))) ids.add(n.slice(0, -6));
    // before the first load's other rows are in, a thread without a row is not new: its row is on its way (#36)
    if (!this.#partial) for (const id of ids) if (!this.#rows.has(id) && !this.#failed.has(id)) this.#dirty.add(id);
    for (const id of this.#rows.keys()) if (!ids.has(id)) this.#dirty.add(id);
  }

  async #watch(): Promise<void> {
    const dir = this.#store.threadsDir;
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      if (this.#disposed) return;
      this.#watcher = watch(dir, { persistent: false }, (_event, name) => {
        const file = typeof name === "string" ? name : "";
        const id = file.endsWith(".jsonl") ? file.slice(0, -6) : "";
        if (!isThreadId(id)) return;
        const h = this.#store.handleOf(id);
        if (h && !h.closed) return; // our own writes: read once when the handle closes
        this.changed(id);
      });
      this.#watcher.on("error", (err) => this.#logger.warn("the threads folder watcher stopped", err));
    } catch (err) {
      this.#logger.warn("cannot watch the threads folder; other processes' threads show after a reload", err);
    }
  }

  async #apply(): Promise<void> {
    const ids = [...this.#dirty];
    this.#dirty.clear();
    for (const id of ids) {
      try {
        await this.#read(id);
      } catch (err) {
        this.#rows.delete(id);
        this.#failed.add(id);
        this.#logger.warn(`thread ${id} could not be read: ${(err as Error).message}`);
      }
    }
  }

  /** Reads what changed in one thread's file (its tail when it only grew), asynchronously. */
  async #read(id: string): Promise<void> {
    const prev = this.#rows.get(id);
    const row = await readCatalogRow(this.#store.pathFor(id), prev);
    if (!row) return void this.#rows.delete(id);
    if (row === prev) return;
    this.#rows.set(id, row);
    this.#early.delete(id);
  }
}

/** The last activity of the oldest of `rows`. */
function oldestOf(rows: CatalogRow[]): string | undefined {
  let oldest: string | undefined;
  for (const { meta } of rows) if (oldest === undefined || meta.lastActivity < oldest) oldest = meta.lastActivity;
  return oldest;
}

/** Whether a thread answers `q` (its limit aside): the in-memory twin of the index's SQL (threads-index.ts). */
export function matches(m: ThreadMetadata, q: ThreadQuery): boolean {
  if (q.workspace && !inWorkspace(m, q.workspace)) return false;
  if (q.agent && m.agent.id !== q.agent && m.agent.name !== q.agent) return false;
  if (q.origin && startedFromOf(m) !== q.origin) return false;
  if (q.status && m.status !== q.status) return false;
  if (q.worktree && !m.worktree) return false;
  if (q.since && m.lastActivity < q.since) return false;
  if (q.before && m.lastActivity >= q.before) return false;
  const archived = q.archived ?? "exclude";
  return archived === "include" || (archived === "only") === !!m.archived;
}

/**
 * The index's workspace rule: started in the folder or below it, or in the repository the folder is; a thread in
 * a worktree (#25, its folder beside the repository) belongs to the workspace of the repository it was made from.
 */
function inWorkspace(m: ThreadMetadata, ws: string): boolean {
  return (
    isInside(ws, m.cwd) ||
    (!!m.repoRoot && isInside(ws, m.repoRoot) && isInside(m.repoRoot, ws)) ||
    (!!m.worktree && isInside(ws, m.worktree.repo))
  );
}
