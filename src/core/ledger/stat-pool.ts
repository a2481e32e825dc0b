/**
 * The walk worker's lstat calls on more than one core (#36 item 6): a walk of an unchanged 10k-file workspace is
 * almost only its 10k lstat calls (~3 µs each here, the system call itself), so they are split into contiguous
 * chunks, one per helper thread plus one for the walk worker, and the walk worker waits for the helpers with
 * `Atomics.wait` (it runs synchronous calls only, off the extension host's thread). Each helper writes size,
 * mtime and inode per path into a shared Float64Array (NaN size: gone). A helper that does not answer within
 * `HELPER_TIMEOUT_MS` (or fails) ends the pool; its chunk is stat'ed by the walk worker, and later walks too.
 * Paths are absolute (the walk cache keeps them with its listings: no `join` per file and walk), and a helper
 * keeps its chunk's paths between walks: they are sent again only when the chunk's list changed.
 */
import { lstatSync } from "node:fs";
import { Worker } from "node:worker_threads";

/** Below this many files one thread is as fast (a helper's round trip costs ~0.1 ms, a file ~3 µs). */
export const POOL_MIN_FILES = 2000;
const HELPER_TIMEOUT_MS = 10_000;
/** Helper threads at most (this script again, one per other core): the walk worker and three. */
const MAX_HELPERS = 3;
const SEP = "\0";

export interface StatRequest {
  /** The chunk's absolute paths, `SEP`-joined; absent: the ones this helper was sent last. */
  paths?: string;
  stats: SharedArrayBuffer;
  done: SharedArrayBuffer;
}

/** size, mtime, inode of `paths[i]` (absolute) at `out[3 * (i - from)]`, for i in [from, to). */
export function statRange(paths: readonly string[], from: number, to: number, out: Float64Array): void {
  for (let i = from, k = 0; i < to; i++, k += 3) {
    const s = lstatSync(paths[i]!, { throwIfNoEntry: false });
    out[k] = s ? s.size : NaN;
    out[k + 1] = s ? s.mtimeMs : 0;
    out[k + 2] = s ? s.ino : 0;
  }
}

let kept: string[] = [];

/** The helpers for `threads` threads in all (the walk worker is one): none on a one-core machine. */
export const statHelpers = (threads: number): number => Math.max(0, Math.min(MAX_HELPERS, Math.floor(threads) - 1));

/** A helper thread's side: one request at a time, answered through the shared memory. */
export function serveStats(req: StatRequest): void {
  if (req.paths !== undefined) kept = req.paths.split(SEP);
  statRange(kept, 0, kept.length, new Float64Array(req.stats));
  const done = new Int32Array(req.done);
  Atomics.store(done, 0, 1);
  Atomics.notify(done, 0);
}

export class StatPool {
  #helpers: Worker[];
  /** The chunk each helper was sent last (the same string objects while the walk's listings are reused). */
  #sent: (readonly string[])[] = [];

  /** `script`: a worker script that calls `serveStats` for each message when `workerData.statHelper` is set. */
  constructor(script: string, helpers: number) {
    this.#helpers = Array.from({ length: helpers }, () => {
      const w = new Worker(script, { workerData: { statHelper: true } });
      w.unref();
      w.on("error", () => this.dispose());
      w.on("exit", () => this.dispose());
      return w;
    });
  }

  get size(): number {
    return this.#helpers.length;
  }

  /** size, mtime, inode per absolute path (NaN size: gone), in `paths` order. */
  statAll(paths: readonly string[]): Float64Array {
    const out = new Float64Array(paths.length * 3);
    const helpers = paths.length >= POOL_MIN_FILES ? this.#helpers : [];
    const chunk = Math.ceil(paths.length / (helpers.length + 1));
    const asked = helpers.map((w, h) => {
      const from = chunk * (h + 1);
      const to = Math.min(paths.length, from + chunk);
      const mine = paths.slice(from, to);
      const same = sameStrings(this.#sent[h], mine);
      this.#sent[h] = mine;
      const req: StatRequest = {
        ...(same ? {} : { paths: mine.join(SEP) }),
        stats: new SharedArrayBuffer(Math.max(1, to - from) * 24),
        done: new SharedArrayBuffer(4),
      };
      if (to > from) w.postMessage(req);
      return { from, to, req };
    });
    statRange(paths, 0, Math.min(paths.length, chunk), out);
    for (const { from, to, req } of asked) {
      if (to <= from) continue;
      const done = new Int32Array(req.done);
      if (Atomics.wait(done, 0, 0, HELPER_TIMEOUT_MS) === "timed-out") {
        this.dispose();
        statRange(paths, from, to, out.subarray(from * 3));
      } else out.set(new Float64Array(req.stats, 0, (to - from) * 3), from * 3);
    }
    return out;
  }

  dispose(): void {
    const helpers = this.#helpers;
    this.#helpers = [];
    this.#sent = [];
    for (const w of helpers) void w.terminate().catch(() => undefined);
  }
}

/** Whether two lists hold the same strings in the same order. */
export function sameStrings(a: readonly string[] | undefined, b: readonly string[]): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
