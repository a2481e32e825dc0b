/**
 * The state of each worktree the sessions tree shows (changed files, +/- lines, commits ahead), computed with
 * async git off the host's thread and cached: read again only when asked (a session's turn ended, an apply,
 * commit or discard), never on a timer. The tree reads the cache and is told when an answer arrives.
 */
import * as vscode from "vscode";
import type { WorktreeRef } from "../../core/model/records";
import { background } from "../../core/util/unexpected";
import { worktreeState, type WorktreeState } from "../../core/worktree/state";

export class WorktreeStates implements vscode.Disposable {
  readonly #states = new Map<string, WorktreeState>();
  readonly #pending = new Map<string, Promise<WorktreeState>>();
  readonly #changed = new vscode.EventEmitter<void>();
  /** An answer arrived (the tree redraws). */
  readonly onDidChange = this.#changed.event;

  /** The cached state; undefined until the first answer (asked for here). */
  get(ref: WorktreeRef): WorktreeState | undefined {
    const known = this.#states.get(ref.path);
    if (!known) background(this.read(ref), "reading a worktree's state");
    return known;
  }

  /** Reads the state now (one read per worktree at a time). */
  read(ref: WorktreeRef): Promise<WorktreeState> {
    const running = this.#pending.get(ref.path);
    if (running) return running;
    const p = worktreeState(ref)
      .catch((): WorktreeState => ({ exists: false, head: null, ahead: 0, files: [], added: 0, removed: 0 }))
      .then((s) => {
        this.#states.set(ref.path, s);
        this.#pending.delete(ref.path);
        this.#changed.fire();
        return s;
      });
    this.#pending.set(ref.path, p);
    return p;
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
