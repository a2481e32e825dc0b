/**
 * The stat walks of one tracker (tracker.ts): of the whole workspace (walk mode, a plain folder's baseline), or of
 * the folders below the tops left without a watch (watch-set.ts, partial watches). They run in the walk worker
 * when there is one (walk-worker-client.ts), which answers a sync's walk with the difference from the walk the
 * tracker last took in whole; else here, asynchronously (walk.ts), with whole answers.
 */
import type { IgnoreMatcher } from "./gitignore";
import { walkDirs, walkWorkspace, type StatInfo, type WalkDelta } from "./walk";
import type { WalkAnswer, WalkWorker } from "./walk-worker-client";

export interface WalkScope {
  root: string;
  /** The ignore matcher's root (the repository top, or `root`), its prefix for `root`, and git's excludes. */
  top: string;
  prefix: string;
  excludes: string[] | undefined;
  matcher: IgnoreMatcher;
  /** Maps a root-relative path to the matcher's root. */
  toTop(rel: string): string;
  /** A walk stops past this many files (`truncated`). */
  maxFiles: number;
}

export class TrackerWalks {
  readonly #scope: WalkScope;
  readonly #walker: WalkWorker | undefined;
  /** This tracker's walk cache in the walk worker, and the walk it last took in whole (walk-cache.ts). */
  readonly #client: number | undefined;
  #gen: number | undefined;

  constructor(scope: WalkScope, walker?: WalkWorker) {
    this.#scope = scope;
    this.#walker = walker;
    this.#client = walker?.client();
  }

  /**
   * Every folder the ignore rules let through, in the walk worker when there is one (the matcher reads each
   * folder's .gitignore with synchronous calls), else here, asynchronously.
   */
  async listDirs(): Promise<string[]> {
    const answer = await this.#inWorker({ dirsOnly: true });
    return answer?.walk.dirs ?? walkDirs(this.#scope.root, this.#scope.matcher, this.#scope.toTop);
  }

  /** A whole walk (never a difference): of the workspace, or of the folders below `tops` only. */
  async whole(tops?: readonly string[]): Promise<WalkDelta> {
    return (await this.#walk(undefined, tops && this.#roots(tops))).walk;
  }

  /**
   * A sync's walk (of the folders below `tops` only, when given): the difference from the walk last taken in
   * whole when the worker can give it. `took()` says that the caller took this one in whole.
   */
  async next(tops?: readonly string[]): Promise<{ walk: WalkDelta; took(): void }> {
    // the walk cache's difference holds only if the tracker took in the walk it is the difference from
    const since = this.#gen;
    this.#gen = undefined;
    const { walk, gen } = await this.#walk(since, tops && this.#roots(tops));
    return {
      walk,
      took: () => {
        this.#gen = walk.truncated ? undefined : gen;
      },
    };
  }

  /** Drops this tracker's walk cache in the worker. */
  forget(): void {
    if (this.#client !== undefined) this.#walker?.forget(this.#client);
  }

  /** The folders to walk below the tops left without a watch: not those below an ignored folder. */
  #roots(tops: readonly string[]): string[] {
    // a top below an ignored folder (its tracked files' folder) is not walked: its files are looked at one by one
    return tops.filter((t) => !t || !this.#scope.matcher.ignores(this.#scope.toTop(t), true));
  }

  async #walk(since: number | undefined, roots?: readonly string[]): Promise<{ walk: WalkDelta; gen?: number }> {
    if (roots?.length === 0) return { walk: { full: true, changed: new Map(), removed: [], truncated: false } };
    const answer = await this.#inWorker({ ...(since !== undefined ? { since } : {}), ...(roots ? { roots } : {}) });
    if (answer) return answer;
    const { root, matcher, toTop, maxFiles } = this.#scope;
    if (!roots) {
      const w = await walkWorkspace(root, matcher, { maxFiles, toTop });
      return { walk: { full: true, changed: w.files, removed: [], truncated: w.truncated, dirs: w.dirs } };
    }
    const changed = new Map<string, StatInfo>();
    let truncated = false;
    for (const dir of roots) {
      const w = await walkWorkspace(root, matcher, { maxFiles, toTop, dir });
      for (const [rel, st] of w.files) changed.set(rel, st);
      truncated ||= w.truncated;
    }
    return { walk: { full: true, changed, removed: [], truncated } };
  }

  /** A walk request to the walk worker; undefined when there is none (or it failed). */
  #inWorker(req: { since?: number; dirsOnly?: boolean; roots?: readonly string[] }): Promise<WalkAnswer | undefined> {
    if (!this.#walker || this.#client === undefined) return Promise.resolve(undefined);
    const { root, top, prefix, excludes, maxFiles } = this.#scope;
    return this.#walker.walk({
      client: this.#client,
      ...req,
      root,
      top,
      prefix,
      maxFiles,
      ...(excludes ? { excludes } : {}),
    });
  }
}
