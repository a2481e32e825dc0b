/**
 * What inline review shows, read off the host's thread and kept (#35): per thread under review, its ledger view and
 * each reviewed file (per operation and path, its two versions read from the blob store), both as promises, until
 * the thread records more (`drop`). Placing the pending hunks on a document's text then reads nothing: typing in a
 * reviewed file only maps ranges. A read that `drop` overtook answers the call that asked and is never kept.
 */
import type { EditLedger } from "./edit-ledger";
import { hunksOf, mapRanges, type LineHunk } from "./hunks";
import { keptKey, type FileChange, type LedgerView, type OpView } from "./ledger-view";
import { isReviewable, restoredTurns } from "./restored";
import { reviewFileAsync, type ReviewFile, type ReviewHunk } from "./review";

export interface PlacedHunk {
  threadId: string;
  file: ReviewFile;
  hunk: ReviewHunk;
  /** A turn's hunk, or one a worktree apply brought into the workspace. */
  type: "turn" | "apply";
  agent: string;
  /** Lines of the document now (end-exclusive; equal for a removal). */
  start: number;
  end: number;
}

/**
 * How many documents' reviewed files are kept: those most recently placed. Typing in any of them reads nothing; a
 * document placed after this many others reads its versions again. It bounds what a long day of reviews holds
 * (each kept file is two versions of it per turn that changed it).
 */
export const KEPT_PATHS = 8;

interface Kept {
  view: Promise<LedgerView>;
  /** Reviewed files of this view, by path, then by operation. */
  files: Map<string, Map<OpView["op"], Promise<ReviewFile>>>;
}

export class ReviewCache {
  readonly #threads = new Map<string, Kept>();
  /** The paths whose reviewed files are kept, least recently placed first. */
  readonly #paths = new Set<string>();
  /**
   * The last document text placed on and its diff against each reviewed version (by the version's text): every
   * pending hunk of a version maps through one diff, and the lenses and decorations asking for the same text share
   * it. One text at a time: a placement on another text starts afresh.
   */
  #diffs: { text: string; of: Map<string, LineHunk[]> } = { text: "", of: new Map() };

  constructor(private readonly ledger: EditLedger) {}

  /** The thread's ledger, read once and kept until `drop(threadId)`. */
  view(threadId: string): Promise<LedgerView> {
    return this.#kept(threadId).view;
  }

  /** Forgets what was read of the thread (it recorded more: a turn, a keep, an undo, a restore). */
  drop(threadId: string): void {
    this.#threads.delete(threadId);
  }

  /** The pending hunks of `threads`' reviewable changes to `path`, placed on `text` (the document now), in line order. */
  async placed(threads: Iterable<string>, path: string, text: string): Promise<PlacedHunk[]> {
    this.#touch(path);
    const perThread = await Promise.all([...threads].map((id) => this.#placedOf(id, path, text)));
    return perThread.flat().sort((a, b) => a.start - b.start);
  }

  /** Of `threads`, the last to change `path` in an operation still reviewable (review comments go to it). */
  async author(threads: Iterable<string>, path: string): Promise<string | undefined> {
    const watched = [...threads];
    const views = await Promise.all(watched.map((id) => this.view(id)));
    let best: { threadId: string; at: string } | undefined;
    for (const [i, threadId] of watched.entries())
      for (const op of views[i]!.ops)
        if (isReviewable(op) && op.files.some((f) => f.path === path) && (!best || op.startedAt > best.at))
          best = { threadId, at: op.startedAt };
    return best?.threadId;
  }

  /**
   * Whether anything of the thread is left to review: a hunk (or a whole file) of a reviewable change, not restored,
   * neither kept nor undone. A file with no keep or undo recorded is pending without reading it; only a file
   * settled hunk by hunk has its versions read (not kept: the thread is asked once per change it records).
   */
  async pending(threadId: string): Promise<boolean> {
    const view = await this.view(threadId);
    const restored = restoredTurns(view);
    const undone = new Set<string>();
    for (const o of view.ops) {
      const t = o.summary?.target;
      if (o.type === "undo" && t?.path !== undefined) undone.add(keptKey(t.op, t.path));
    }
    for (const op of view.ops) {
      if (!isReviewable(op) || restored.has(op.op)) continue;
      for (const change of op.files) {
        const key = keptKey(op.op, change.path);
        const kept = view.kept.get(key);
        if (!kept && !undone.has(key)) return true;
        if (kept?.has(null)) continue;
        if ((await reviewFileAsync(this.ledger, view, op, change)).status === "pending") return true;
      }
    }
    return false;
  }

  async #placedOf(threadId: string, path: string, text: string): Promise<PlacedHunk[]> {
    const kept = this.#kept(threadId);
    const view = await kept.view;
    const restored = restoredTurns(view);
    const changes: { op: OpView; change: FileChange }[] = [];
    for (const op of view.ops) {
      // a restored turn's (or apply's) changes are no longer in the workspace: nothing of it to keep or undo
      const change = isReviewable(op) && !restored.has(op.op) ? op.files.find((f) => f.path === path) : undefined;
      if (change) changes.push({ op, change });
    }
    const files = await Promise.all(changes.map(({ op, change }) => this.#file(kept, view, op, change)));
    const out: PlacedHunk[] = [];
    files.forEach((file, i) => {
      if (!file.diffable || file.after === null) return;
      const op = changes[i]!.op;
      const type = op.type === "apply" ? "apply" : "turn";
      const pending = file.hunks.filter((h) => h.status === "pending");
      if (!pending.length) return;
      const now = mapRanges(
        this.#diff(file.after, text),
        pending.map((h) => ({ start: h.afterStart, end: h.afterEnd })),
      );
      pending.forEach((hunk, k) => {
        const at = now[k];
        if (at) out.push({ threadId, file, hunk, type, agent: op.summary?.agent?.name ?? "agent", ...at });
      });
    });
    return out;
  }

  /** `version` (a reviewed file's text after its change) against `text`, diffed once per text. */
  #diff(version: string, text: string): LineHunk[] {
    if (this.#diffs.text !== text) this.#diffs = { text, of: new Map() };
    let hunks = this.#diffs.of.get(version);
    if (!hunks) this.#diffs.of.set(version, (hunks = hunksOf(version, text)));
    return hunks;
  }

  /** The file as `kept.view` reviews it, built once per view (its versions read once). */
  #file(kept: Kept, view: LedgerView, op: OpView, change: FileChange): Promise<ReviewFile> {
    const read = () => reviewFileAsync(this.ledger, view, op, change);
    // a path let go while this placement waited for its view is read for this placement only
    if (!this.#paths.has(change.path)) return read();
    let ofPath = kept.files.get(change.path);
    if (!ofPath) kept.files.set(change.path, (ofPath = new Map()));
    const files = ofPath;
    let file = files.get(op.op);
    if (!file) {
      const reading = read();
      files.set(op.op, reading);
      // a failed read is not kept: the next placement tries again
      reading.catch(() => files.get(op.op) === reading && files.delete(op.op));
      file = reading;
    }
    return file;
  }

  /** `path` is the most recently placed; the reviewed files of the least recent beyond `KEPT_PATHS` are let go. */
  #touch(path: string): void {
    this.#paths.delete(path);
    this.#paths.add(path);
    for (const old of this.#paths) {
      if (this.#paths.size <= KEPT_PATHS) break;
      this.#paths.delete(old);
      for (const kept of this.#threads.values()) kept.files.delete(old);
    }
  }

  #kept(threadId: string): Kept {
    let kept = this.#threads.get(threadId);
    if (!kept) {
      const view = this.ledger.readAsync(threadId);
      const fresh: Kept = { view, files: new Map() };
      kept = fresh;
      this.#threads.set(threadId, fresh);
      view.catch(() => this.#threads.get(threadId) === fresh && this.#threads.delete(threadId));
    }
    return kept;
  }
}
