/**
 * The state of each worktree the sessions tree shows (changed files, +/- lines, commits ahead), computed with
 * async git off the host's thread and cached: read again only when asked (a session's turn ended, an apply,
 * commit or discard), never on a timer. The tree reads the cache and is told when an answer arrives.
 */
import * as vscode from "vscode";
import type { WorktreeRef } from "../../core/model/records";
import { freshReads } from "../../core/util/fresh-read";
import { background } from "../../core/util/unexpected";
import { GONE_WORKTREE, type WorktreeState } from "../../core/model/worktree";

/** Reads the state of the worktree a thread's record keeps (the engine's `worktree.state`). */
export type ReadWorktreeState = (threadId: string) => Promise<WorktreeState>;

export class WorktreeStates implements vscode.Disposable {
  readonly #states = new Map<string, WorktreeState>();
  /** The thread of each worktree path asked about (the reads below are keyed by path). */
  readonly #threads = new Map<string, string>();
  /** One git read per worktree at a time; an ask during one gets a read that starts after it (fresh-read.ts). */
  readonly #reads = freshReads((path: string) =>
    this.readState(this.#threads.get(path)!)
      .catch((): WorktreeState => ({ ...GONE_WORKTREE, files: [] }))
      .then((s) => {
        this.#states.set(path, s);
        this.#changed.fire();
        return s;
      }),
  );
  readonly #changed = new vscode.EventEmitter<void>();
  /** An answer arrived (the tree redraws). */
  readonly onDidChange = this.#changed.event;

  constructor(private readonly readState: ReadWorktreeState) {}

  /** The cached state; undefined until the first answer (asked for here). */
  get(threadId: string, ref: WorktreeRef): WorktreeState | undefined {
    const known = this.#states.get(ref.path);
    if (!known && !this.#reads.busy(ref.path)) background(this.read(threadId, ref), "reading a worktree's state");
    return known;
  }

  /**
   * Reads the state now. A read already running began before whatever made the caller ask (a turn's writes, an
   * apply), so it does not answer: the caller gets the read that starts after it.
   */
  read(threadId: string, ref: WorktreeRef): Promise<WorktreeState> {
    this.#threads.set(ref.path, threadId);
    return this.#reads.read(ref.path);
  }

  /** Forget a cached state and read it again (its worktree changed). */
  invalidate(threadId: string, ref: WorktreeRef): void {
    background(this.read(threadId, ref), "reading a worktree's state");
  }

  /** A new worktree appeared somewhere: the tree lists again. */
  refresh(): void {
    this.#changed.fire();
  }

  forget(path: string): void {
    this.#states.delete(path);
    if (!this.#reads.busy(path)) this.#threads.delete(path);
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
