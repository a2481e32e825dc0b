/**
 * This window's hosted Best of N runs (#35) and their records' writer: the record of each one this window follows
 * (core/worktree/best-of-records.ts) is written through one queue, in order, off the extension host's thread; a
 * failed write is logged and never stops a candidate. When the window goes (a reload), `detachAll` lets go of every
 * run without cancelling the host's turns or closing the record, so the reloaded window picks them up
 * (best-of-resume.ts).
 */
import type * as vscode from "vscode";
import type { Logger } from "../../core/log";
import type { BestOfRecord } from "../../core/worktree/best-of-record";
import { BestOfRecords } from "../../core/worktree/best-of-records";

export class BestOfRuns implements vscode.Disposable {
  readonly store: BestOfRecords;
  /** Record id → how to let go of it (null: being picked up). */
  readonly #here = new Map<string, (() => void) | null>();
  #writes: Promise<void> = Promise.resolve();

  constructor(
    file: string,
    private readonly logger: Logger,
  ) {
    this.store = new BestOfRecords(file);
  }

  /** This window follows the record's Best of N (or is picking it up). */
  follows(id: string): boolean {
    return this.#here.has(id);
  }

  /** Marks a record as being picked up here; false when this window follows it already. */
  reserve(id: string): boolean {
    if (this.#here.has(id)) return false;
    this.#here.set(id, null);
    return true;
  }

  /** This window follows the record's Best of N until the returned disposable; `letGo` is called when it goes. */
  follow(id: string, letGo: () => void): vscode.Disposable {
    this.#here.set(id, letGo);
    return { dispose: () => this.forget(id, letGo) };
  }

  forget(id: string, letGo?: () => void): void {
    if (!letGo || this.#here.get(id) === letGo) this.#here.delete(id);
  }

  /** Queues a change of a record (after this window's earlier ones). */
  write(id: string, edit: (r: BestOfRecord) => boolean | void): void {
    this.#writes = this.#writes
      .then(() => this.store.update(id, edit))
      .then(
        () => undefined,
        (err: unknown) => this.logger.warn(`could not update the record of Best of N ${id}`, err),
      );
  }

  /** Resolves once every change queued so far is written (or failed). */
  settled(): Promise<void> {
    return this.#writes;
  }

  /** The window goes: every run this window follows is let go of, its host turns left running. */
  detachAll(): void {
    for (const [id, letGo] of [...this.#here]) {
      this.#here.delete(id);
      letGo?.();
    }
  }

  dispose(): void {
    this.detachAll();
  }
}
