/**
 * What inline review shows, read off the host's thread and kept (#35): per thread under review, its ledger view and
 * each reviewed file (per operation and path, its two versions read from the blob store), both as promises, until
 * the thread records more (`drop`). Placing the pending hunks on a document's text then reads nothing: typing in a
 * reviewed file only maps ranges. A read that `drop` overtook answers the call that asked and is never kept.
 */
import type { EditLedger } from "./edit-ledger";
import { mapRange } from "./hunks";
import type { FileChange, LedgerView, OpView } from "./ledger-view";
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

interface Kept {
  view: Promise<LedgerView>;
  /** Reviewed files of this view, by `op path`. */
  files: Map<string, Promise<ReviewFile>>;
}

export class ReviewCache {
  readonly #threads = new Map<string, Kept>();

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
    const perThread = await Promise.all([...threads].map((id) => this.#placedOf(id, path, text)));
    return perThread.flat().sort((a, b) => a.start - b.start);
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
      for (const hunk of file.hunks) {
        if (hunk.status !== "pending") continue;
        const at = mapRange(file.after, text, hunk.afterStart, hunk.afterEnd);
        if (at) out.push({ threadId, file, hunk, type, agent: op.summary?.agent?.name ?? "agent", ...at });
      }
    });
    return out;
  }

  /** The file as `kept.view` reviews it, built once per view (its versions read once). */
  #file(kept: Kept, view: LedgerView, op: OpView, change: FileChange): Promise<ReviewFile> {
    const key = `${op.op} ${change.path}`;
    let file = kept.files.get(key);
    if (!file) {
      file = reviewFileAsync(this.ledger, view, op, change);
      kept.files.set(key, file);
      // a failed read is not kept: the next placement tries again
      file.catch(() => kept.files.get(key) === file && kept.files.delete(key));
    }
    return file;
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
