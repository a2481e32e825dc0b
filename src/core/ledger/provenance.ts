/**
 * Which thread, turn and agent wrote each line of a file, from every thread's ledger (so it survives reloads).
 * The file's recorded changes are replayed oldest first: lines a turn added carry that turn; lines that changed
 * between two recorded versions (a hand edit, a restore) lose what they carried; finally the last recorded
 * version is compared with the text as it is now, so a line edited by hand since ages out.
 *
 * The index over all ledgers is derived and cached: the ledger folder is listed and a ledger read once, then again
 * only after `invalidate` (the editor calls it when a ledger is appended to, here or by another process); what the
 * recorded versions say about a path is kept too, so a hover on a file being typed in reads no file at all.
 * Every read is asynchronous (fs/promises: the window's thread never waits on the disk). What is cached is the
 * read's promise, so hovers at once share one read; `invalidate` drops it, and a read it overtook answers only the
 * hover that asked for it (it is never kept).
 */
import { readdir } from "node:fs/promises";
import type { EditLedger } from "./edit-ledger";
import { hunksOf } from "./hunks";
import type { FileChange, OpView } from "./ledger-view";
import { splitLines } from "../text/lines";
import { isThreadId } from "../model/thread-id";
import { inParallel } from "../util/at-once";

export interface LineOrigin {
  threadId: string;
  op: string;
  turn: number;
  agent?: { id: string; name: string };
  /** When the turn's change was recorded. */
  ts: string;
}

/** Paths whose replay is kept (the oldest worked out goes first). */
const RECORDED_PATHS = 256;
/** Ledgers (and blobs) read at once. */
const READS = 16;

interface PathChange {
  origin: LineOrigin | null;
  change: FileChange;
}

interface Recorded {
  prev: string | undefined;
  attr: (LineOrigin | null)[];
}

export class ProvenanceIndex {
  readonly #ledger: EditLedger;
  /** Per thread: its ledger's operations, until invalidated. */
  readonly #files = new Map<string, Promise<OpView[]>>();
  /** The ledger files' names, until invalidated. */
  #names: Promise<string[]> | undefined;
  /** Per path: the last recorded version and its lines' origins, until invalidated. */
  readonly #recorded = new Map<string, Promise<Recorded>>();

  constructor(ledger: EditLedger) {
    this.#ledger = ledger;
  }

  /** The ledgers' folder (watched by the editor to invalidate on another process's appends). */
  get dir(): string {
    return this.#ledger.dir;
  }

  /** A ledger changed (`threadId`'s, or any): what was worked out from it is read again when next needed. */
  invalidate(threadId?: string): void {
    if (threadId) this.#files.delete(threadId);
    else this.#files.clear();
    this.#names = undefined;
    this.#recorded.clear();
  }

  /** For each line of `text` (the file at `path` now): the turn that wrote it, or null. */
  async linesOf(path: string, text: string): Promise<(LineOrigin | null)[]> {
    const rec = await cached(this.#recorded, path, () => this.#replay(path));
    if (this.#recorded.size > RECORDED_PATHS) this.#recorded.delete(this.#recorded.keys().next().value!);
    return rec.prev === undefined
      ? new Array<LineOrigin | null>(splitLines(text).length).fill(null)
      : carry(rec.prev, text, rec.attr, null);
  }

  /** Replays the recorded changes to `path`: its last recorded version and who wrote each of its lines. */
  async #replay(path: string): Promise<Recorded> {
    const changes = await this.#changesTo(path);
    if (!changes.length) return { prev: undefined, attr: [] };
    const texts = await inParallel(changes, READS, ({ change }) =>
      Promise.all([this.#text(change.before), this.#text(change.after)]),
    );
    let attr: (LineOrigin | null)[] = [];
    let prev: string | undefined;
    changes.forEach(({ origin }, i) => {
      const [before, after] = texts[i]!;
      if (before === undefined || after === undefined) {
        prev = after;
        attr = new Array<LineOrigin | null>(after === undefined ? 0 : splitLines(after).length).fill(null);
        return;
      }
      attr = prev === undefined ? new Array(splitLines(before).length).fill(null) : carry(prev, before, attr, null);
      attr = carry(before, after, attr, origin);
      prev = after;
    });
    return { prev, attr };
  }

  /** Every thread's recorded changes to `path`, oldest first. */
  async #changesTo(path: string): Promise<PathChange[]> {
    const out: PathChange[] = [];
    for (const [threadId, ops] of await this.#allOps()) {
      for (const op of ops) {
        const change = op.files.find((f) => f.path === path);
        if (!change) continue;
        const origin: LineOrigin | null =
          op.type === "turn" && op.turn !== undefined
            ? {
                threadId,
                op: op.op,
                turn: op.turn,
                ts: change.ts,
                ...(op.summary?.agent ? { agent: op.summary.agent } : {}),
              }
            : null;
        out.push({ origin, change });
      }
    }
    return out.sort((a, b) => (a.change.ts < b.change.ts ? -1 : a.change.ts > b.change.ts ? 1 : 0));
  }

  /** Every ledger's operations, in the folder's order (a missing ledger has none). */
  async #allOps(): Promise<[string, OpView[]][]> {
    this.#names ??= readdir(this.#ledger.dir).then(
      (all) => all.filter((n) => n.endsWith(".jsonl") && isThreadId(n.slice(0, -6))),
      () => [],
    );
    const ids = (await this.#names).map((name) => name.slice(0, -".jsonl".length));
    return inParallel(ids, READS, async (threadId) => {
      const ops = await cached(this.#files, threadId, async () => (await this.#ledger.readAsync(threadId)).ops);
      return [threadId, ops] as [string, OpView[]];
    });
  }

  async #text(s: FileChange["before"]): Promise<string | undefined> {
    if (!s) return "";
    return s.stored ? this.#ledger.blobs.getTextAsync(s.id!) : undefined;
  }
}

/**
 * `map`'s promise for `key`, made by `make` when there is none; a failed one is dropped (the next ask tries again),
 * unless it was replaced (invalidated) meanwhile.
 */
function cached<T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let p = map.get(key);
  if (!p) {
    const made = make();
    map.set(key, (p = made));
    made.catch(() => {
      if (map.get(key) === made) map.delete(key);
    });
  }
  return p;
}

/** Maps line attributions of `from` onto `to`: unchanged lines keep theirs, changed lines get `mark`. */
function carry<T>(from: string, to: string, attr: readonly (T | null)[], mark: T | null): (T | null)[] {
  const out: (T | null)[] = [];
  let i = 0; // line in `from`
  for (const h of hunksOf(from, to)) {
    while (i < h.beforeStart) out.push(attr[i++] ?? null);
    for (let k = h.afterStart; k < h.afterEnd; k++) out.push(mark);
    i = h.beforeEnd;
  }
  const n = splitLines(from).length;
  while (i < n) out.push(attr[i++] ?? null);
  return out;
}
