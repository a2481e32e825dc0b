/**
 * The state of each worktree the sessions tree shows (changed files, +/- lines, commits ahead), computed with
 * async git off the host's thread and cached: read again only when asked (a session's turn ended, an apply,
 * commit or discard), never on a timer. The tree reads the cache and is told when an answer arrives.
 */
import * as vscode from "vscode";
import type { WorktreeRef } from "../../core/model/records";
import { freshReads } from "../../core/util/fresh-read";
import { background } from "../../core/util/unexpected";
import { worktreeState, type WorktreeState } from "../../core/worktree/state";

export class WorktreeStates implements vscode.Disposable {
  readonly #states = new Map<string, WorktreeState>();
  /** The newest ref asked about per worktree path (the reads below are keyed by path). */
  readonly #refs = new Map<string, WorktreeRef>();
  /** One git read per worktree at a time; an ask during one gets a read that starts after it (fresh-read.ts). */
  readonly #reads = freshReads((path: string) =>
    worktreeState(this.#refs.get(path)!)
      .catch((): WorktreeState => ({ exists: false, head: null, ahead: 0, files: [], added: 0, removed: 0 }))
      .then((s) => {
        this.#states.set(path, s);
        this.#changed.fire();
        return s;
      }),
  );
  readonly #changed = new vscode.EventEmitter<void>();
  /** An answer arrived (the tree redraws). */
  readonly onDidChange = this.#changed.event;

  /** The cached state; undefined until the first answer (asked for here). */
  get(ref: WorktreeRef): WorktreeState | undefined {
    const known = this.#states.get(ref.path);
    if (!known && !this.#reads.busy(ref.path)) background(this.read(ref), "reading a worktree's state");
    return known;
  }

  /**
   * Reads the state now. A read already running began before whatever made the caller ask (a turn's writes, an
   * apply), so it does not answer: the caller gets the read that starts after it.
   */
  read(ref: WorktreeRef): Promise<WorktreeState> {
    this.#refs.set(ref.path, ref);
    return this.#reads.read(ref.path);
  }

  /** Forget a cached state and read it again (its worktree changed). */
  invalidate(ref: WorktreeRef): void {
    background(this.read(ref), "reading a worktree's state");
  }

  /** A new worktree appeared somewhere: the tree lists again. */
  refresh(): void {
    this.#changed.fire();
  }

  forget(path: string): void {
    this.#states.delete(path);
    if (!this.#reads.busy(path)) this.#refs.delete(path);
  }

  dispose(): void {
    this.#changed.dispose();
  }
}

/** `3 files +10 −2 · 1 commit ahead`, `no changes`, `folder gone`. */
export function describeWorktreeState(s: WorktreeState | undefined): string {
  if (!s) return "…";
  if (!s.exists) return "folder gone";
  const files = s.files.length
    ? `${s.files.length} file${s.files.length === 1 ? "" : "s"} +${s.added} −${s.removed}`
    : "no changes";
  return s.ahead ? `${files} · ${s.ahead} commit${s.ahead === 1 ? "" : "s"} ahead` : files;
}
