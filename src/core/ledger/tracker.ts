/**
 * The ledger's view of one workspace on disk: for every file git would not ignore, the id of its current
 * content, so that when an agent that writes to disk itself (codex-acp, claude-agent-acp, every exec CLI)
 * changes a file, the version before the change is already known and kept.
 *
 * Baseline (once per workspace and process, tracker-baseline.ts): in a git repository the index gives the id of
 * every clean tracked file without reading it; elsewhere every file is read once, and a manifest cache keeps the
 * ids between runs. The known files, their reads and deltas: known-files.ts. After the baseline, directory watches mark changed paths dirty and `sync()` looks only
 * at those: the cost of a turn boundary follows what changed, not the workspace size. Without watches (inotify
 * limit, `watch: false`) `sync()` stat-walks the workspace; when the OS granted some watches and refused the rest,
 * it stat-walks the folders left without one (watch-set.ts). The walks themselves: tracker-walks.ts.
 *
 * A file whose stat was taken within the timestamp tick of its last change is "racy" (racy.ts): read again at
 * every sync, and its content compared, until a stat of it is older than that. A clean tracked file whose stat
 * the baseline adopted is not (known-files.ts `adoptStat`).
 *
 * In walk mode a turn's first sync may run while the turn's agent already writes (`sync({ since })`, the file
 * system's time at the turn's start: turn-clock.ts). A file that changed after `since` is then left as the tracker
 * knew it ("unsure"), and the next sync compares it with that version: the turn's end gives the change to the
 * turn, with the version before it. A file that changed before is taken in as before (an edit between turns).
 */
import { lstat, mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Stats } from "node:fs";
import { nullLogger, type Logger } from "../log";
import type { BlobStore } from "./blob-store";
import { DEFAULT_LIMITS, isBinary, type FileState, type LedgerLimits } from "./content";
import { BlobReader } from "./git-plumbing";
import type { IgnoreMatcher } from "./gitignore";
import { KnownFiles, READ_CONCURRENCY, type Entry, type FileDelta } from "./known-files";
import { saveManifestCache } from "./manifest-cache";
import { buildBaseline, toTop, type TrackerMode } from "./tracker-baseline";
import type { TrackerWalks } from "./tracker-walks";
import { SinceTurn } from "./since-turn";
import { TurnClock } from "./turn-clock";
import type { WalkWorker } from "./walk-worker-client";
import { settle, type WatchSet } from "./watch-set";
import { inParallel } from "../util/at-once";

export type { FileDelta } from "./known-files";
export type { TrackerMode } from "./tracker-baseline";

export interface TrackerOptions {
  blobs: BlobStore;
  limits?: Partial<LedgerLimits>;
  /**
   * Watch directories (default true); false = a stat walk at every sync. A number: at most that many watches (tests
   * and the bench: the OS's inotify limit, simulated; the folders left without one are walked).
   */
  watch?: boolean | number;
  /** Where a non-git workspace's manifest is cached between runs (derived; rebuilt when missing). */
  cacheDir?: string;
  /** Runs stat walks in a worker thread (walk-worker-client.ts); without it they run here, asynchronously. */
  walker?: WalkWorker;
  logger?: Logger;
}

export class WorkspaceTracker {
  readonly root: string;
  readonly #opts: TrackerOptions;
  readonly #limits: LedgerLimits;
  readonly #logger: Logger;
  /** The known files and their racy set (known-files.ts). */
  readonly #files: KnownFiles;
  #matcher!: IgnoreMatcher;
  #prefix = "";
  #gitTop: string | undefined;
  #gitBlobs: BlobReader | undefined;
  #watcher: WatchSet | undefined;
  #mode: TrackerMode = "walk";
  #offReason: string | undefined;
  #chain: Promise<unknown> = Promise.resolve();
  #disposed = false;
  /** The manifest's save handed off by `dispose` (resolved at once when there is none). */
  #closed: Promise<void> | undefined;
  #walks!: TrackerWalks;
  /** Tracked files the last walk did not list (tracked below an ignored folder): looked at on every walk. */
  #unlisted = new Set<string>();
  /** Files a sync with `since` saw changed after it: left as they were known, looked at by the next sync. */
  #unsure = new Set<string>();
  /** The file system's clock for `turnStamp`, once looked for (resolves to undefined: none comparable). */
  #clock: Promise<TurnClock | undefined> | undefined;

  private constructor(root: string, opts: TrackerOptions) {
    this.root = root;
    this.#opts = opts;
    this.#limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.#logger = opts.logger ?? nullLogger;
    this.#files = new KnownFiles(root, opts.blobs, this.#limits.maxFileBytes);
  }

  /** Builds the baseline and starts watching (tracker-baseline.ts). */
  static async open(root: string, opts: TrackerOptions): Promise<WorkspaceTracker> {
    const t = new WorkspaceTracker(root, opts);
    const { cacheDir, walker } = opts;
    const watch = opts.watch ?? true;
    const b = await buildBaseline(
      root,
      { blobs: opts.blobs, limits: t.#limits, watch, cacheDir, walker, logger: t.#logger },
      t.#files,
    );
    t.#mode = b.mode;
    t.#offReason = b.offReason;
    t.#gitTop = b.gitTop;
    t.#prefix = b.prefix;
    t.#matcher = b.matcher;
    t.#walks = b.walks;
    t.#watcher = b.watcher;
    return t;
  }

  get mode(): TrackerMode {
    return this.#mode;
  }
  /** Why disk changes are not tracked (mode "off"). */
  get offReason(): string | undefined {
    return this.#offReason;
  }
  get fileCount(): number {
    return this.#files.size;
  }
  get isGit(): boolean {
    return this.#gitTop !== undefined;
  }

  /** The last known version of a root-relative file: a state, null (known absent), undefined (not tracked). */
  stateOf(rel: string): FileState | null | undefined {
    return this.#files.get(rel)?.state ?? (this.#mode === "off" || this.ignores(rel) ? undefined : null);
  }

  ignores(rel: string, isDir = false): boolean {
    return this.#matcher.ignores(toTop(this.#prefix, rel), isDir);
  }

  /**
   * Files changed since the last sync (or the baseline). Syncs run one at a time. With `since` (`turnStamp`), a
   * file changed after it is not taken in (nor reported): the next sync compares it with the version known now.
   */
  sync(opts: { since?: number } = {}): Promise<FileDelta[]> {
    const run = this.#chain.then(() => this.#sync(opts.since));
    this.#chain = run.catch(() => undefined);
    return run;
  }

  /**
   * The file system's time now, for a turn's first sync run while the turn already works (`sync({ since })`):
   * whatever is written after this resolves has a later ctime. Undefined when that sync must run before the turn
   * instead: with every folder watched (no walk: the sync costs little), or where the workspace's clock cannot be
   * read (turn-clock.ts). With some folders watched and the rest walked, the same rule covers the watch events.
   */
  async turnStamp(): Promise<number | undefined> {
    const walked = this.#mode === "walk" || (this.#mode === "watch" && this.#watcher!.unwatched.length > 0);
    if (!walked || !this.#opts.cacheDir) return undefined;
    this.#clock ??= mkdir(this.#opts.cacheDir, { recursive: true, mode: 0o700 })
      .then(() => TurnClock.open(this.root, this.#opts.cacheDir!))
      .catch(() => undefined);
    return (await this.#clock)?.now();
  }

  /**
   * Makes sure the content of each state is in the blob store: a clean tracked file's baseline content is
   * copied from git's object database. Returns the states with `stored` set where it now is.
   */
  async keep(states: (FileState | null)[]): Promise<(FileState | null)[]> {
    const wanted = (s: FileState | null): s is FileState => !!s && !s.stored && !!s.id && !s.binary && !s.tooLarge;
    const sizes = new Map<string, number>();
    const fromGit = [...new Set(states.filter(wanted).map((s) => s.id!))];
    if (fromGit.length && this.#gitTop) {
      const reader = (this.#gitBlobs ??= new BlobReader(this.root));
      const read = await reader.read(fromGit);
      // a turn that ends after its folder's last session released this tracker (disposed) still keeps its
      // befores: the reader's process then lives for this read only
      if (this.#disposed) reader.dispose();
      for (const [id, buf] of read) {
        sizes.set(id, buf.length);
        if (!isBinary(buf)) await this.#opts.blobs.put(buf, { id, durable: false });
      }
    }
    return states.map((s) => {
      if (!wanted(s)) return s;
      const size = sizes.get(s.id!) ?? s.size;
      return this.#opts.blobs.has(s.id!) ? { ...s, size, stored: true } : { ...s, size };
    });
  }

  /**
   * Stops watching. A plain folder's manifest is handed to the cache's writer (manifest-cache.ts, off the thread):
   * resolves once it is written (or failed: a warning); never rejects.
   */
  dispose(): Promise<void> {
    if (this.#closed) return this.#closed;
    this.#disposed = true;
    this.#watcher?.dispose();
    this.#gitBlobs?.dispose();
    this.#walks.forget();
    const save = !this.#gitTop && this.#opts.cacheDir && this.#mode !== "off";
    this.#closed = save
      ? saveManifestCache(this.#opts.cacheDir!, this.root, this.#files.entries, this.#logger)
      : Promise.resolve();
    return this.#closed;
  }

  // ---- sync -----------------------------------------------------------------------------------------------

  async #sync(since?: number): Promise<FileDelta[]> {
    if (this.#disposed || this.#mode === "off") return [];
    this.#files.racy.startSync();
    // the files an earlier sync left unsure (changed while it ran): compared with the version known before it
    const unsure = this.#unsure;
    this.#unsure = new Set();
    const sinceTurn = since !== undefined ? new SinceTurn(this.root, since) : undefined;
    if (this.#mode === "walk") return this.#syncWalk(undefined, unsure, sinceTurn);
    const watcher = this.#watcher!;
    await settle();
    const deltas: FileDelta[] = [];
    // the unsure files in the watched part (the walked part's: in its walk)
    for (const rel of unsure) if (!watcher.inUnwatched(rel)) await this.#examine(rel, deltas, sinceTurn);
    while (watcher.hasDirty) {
      const batch = watcher.takeDirty();
      for (const rel of batch) await this.#examine(rel, deltas, sinceTurn);
    }
    // after the dirty paths: a folder whose watch the OS refused just now is walked in this sync already
    if (watcher.unwatched.length) deltas.push(...(await this.#syncWalk(watcher.unwatched, unsure, sinceTurn)));
    // a racy file no event or walk brought up (its stat unchanged): looked at by content
    await inParallel(this.#files.racy.unseen(), READ_CONCURRENCY, (rel) => this.#examine(rel, deltas, sinceTurn));
    // what #update did not see is no longer a file (a folder now, say): nothing to compare
    this.#files.racy.dropUnseen();
    return deltas;
  }

  /** A path a watch event (or an unsure or racy file) brought up; with `since`, see `sync`. */
  async #examine(rel: string, deltas: FileDelta[], since?: SinceTurn): Promise<void> {
    if (rel.split("/").includes(".git")) return;
    if (rel.endsWith(".gitignore")) this.#matcher.reset();
    const abs = join(this.root, rel);
    const st = rel ? await lstat(abs).catch(() => undefined) : undefined;
    // gone after the turn's start (its folder's entries changed since): left for the next sync, as a file is below
    if (rel && !st && since && (await since.changed(rel, undefined, this.#files.get(rel)?.ino)))
      return this.#leaveUnsure(rel);
    if (rel && !st) return this.#gone(rel, deltas);
    if (!rel || st!.isDirectory()) {
      if (rel && this.ignores(rel, true)) return;
      if (!this.#watcher!.add(rel)) return; // the OS refused: the folder is walked from now on, this sync too
      // a new or rescanned directory: its unwatched sub-directories and every file in it are looked at
      return this.#watcher!.rescan(rel, this.#files.keys());
    }
    if (!st!.isFile()) return;
    const prev = this.#files.get(rel);
    if (!prev && this.ignores(rel)) return;
    if (since && (await since.changed(rel, st, prev?.ino))) return this.#leaveUnsure(rel);
    await this.#update(rel, st!, prev, deltas, since);
  }

  /**
   * `rel` may have changed after the turn's start: left as it was known, for the next sync. Seen by this sync
   * (a racy file stays racy: a watch sync forgets the racy files it did not see).
   */
  #leaveUnsure(rel: string): void {
    this.#unsure.add(rel);
    this.#files.racy.saw(rel);
  }

  /** `rel` is no longer there: its entry goes, and every file below it when it was a watched folder. */
  #gone(rel: string, deltas: FileDelta[]): void {
    const folder = !!this.#watcher?.watching(rel);
    if (folder) this.#watcher!.remove(rel);
    this.#files.gone(rel, deltas, folder);
  }

  /** A look at a file (known-files.ts); with `since`, left unsure when it changed after the turn's start. */
  async #update(rel: string, st: Stats, prev: Entry | undefined, deltas: FileDelta[], since?: SinceTurn) {
    if (!(await this.#files.update(rel, st, prev, deltas, since))) this.#leaveUnsure(rel);
  }

  /**
   * A stat walk of the workspace, or of the folders below `tops` only (those without a watch). With `since`, a
   * file that changed after it is left unsure (see `sync`).
   */
  async #syncWalk(
    tops: readonly string[] | undefined,
    unsure: ReadonlySet<string>,
    sinceTurn: SinceTurn | undefined,
  ): Promise<FileDelta[]> {
    const inScope = tops ? (rel: string) => this.#watcher!.inUnwatched(rel) : () => true;
    const { walk, took } = await this.#walks.next(tops);
    const deltas: FileDelta[] = [];
    const asked = new Set<string>();
    const pending: Promise<void>[] = [];
    const look = (rel: string, prev: Entry | undefined) => {
      if (asked.has(rel)) return;
      asked.add(rel);
      pending.push(
        (async () => {
          const st = await lstat(join(this.root, rel)).catch(() => undefined);
          if (sinceTurn && (await sinceTurn.changed(rel, st, prev?.ino))) return this.#leaveUnsure(rel);
          if (!st?.isFile()) return this.#gone(rel, deltas);
          await this.#update(rel, st, prev, deltas, sinceTurn);
        })(),
      );
    };
    // a file an earlier sync left unsure (changed while it ran): compared with the version known before it
    for (const rel of unsure) if (inScope(rel)) look(rel, this.#files.get(rel));
    // a tracked file the walk did not list (deleted, or tracked below an ignored folder) gets a look of its own
    const unlisted = walk.full
      ? [...this.#files.keys()].filter((rel) => inScope(rel) && !walk.changed.has(rel))
      : [...new Set([...this.#unlisted, ...walk.removed])].filter((rel) => !walk.changed.has(rel));
    for (const rel of unlisted) {
      const e = this.#files.get(rel);
      if (e) look(rel, e);
    }
    for (const [rel, st] of walk.changed) {
      const prev = this.#files.get(rel);
      if (!prev || prev.size !== st.size || prev.mtimeMs !== st.mtimeMs || prev.ino !== st.ino) look(rel, prev);
    }
    // a racy file in the walked part whose stat did not change: looked at by content
    for (const rel of this.#files.racy.paths()) {
      const e = this.#files.get(rel);
      if (e && inScope(rel) && !asked.has(rel)) look(rel, e);
    }
    await Promise.all(pending);
    this.#unlisted = new Set(unlisted.filter((rel) => this.#files.has(rel)));
    took();
    return deltas;
  }
}
