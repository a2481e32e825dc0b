/**
 * The recall of this window, owned by the Hub: the recall worker threads (core/recall/worker; the extension host
 * never opens the index itself) started on first use and stopped when the Hub shuts down or is disposed.
 * `onDidImport` fires after an import so an open Recall view re-runs its search with the new sessions.
 */
import { join } from "node:path";
import * as vscode from "vscode";
import { RecallWorkers } from "../core/recall/worker/client";
import { background } from "../core/util/unexpected";

export class RecallIndex implements vscode.Disposable {
  #workers: RecallWorkers | undefined;
  readonly #imported = new vscode.EventEmitter<void>();
  readonly onDidImport = this.#imported.event;

  constructor(
    private readonly extensionPath: string,
    private readonly home: string,
  ) {}

  /** The workers (search and import), started on first use. */
  workers(): RecallWorkers {
    return (this.#workers ??= new RecallWorkers(join(this.extensionPath, "dist", "recall-worker.js"), this.home));
  }

  /** Tells open views that new sessions were imported. */
  imported(): void {
    this.#imported.fire();
  }

  /** Cancels a running import and stops the workers (they start again on the next use). */
  async close(): Promise<void> {
    const w = this.#workers;
    this.#workers = undefined;
    await w?.dispose();
  }

  dispose(): void {
    background(this.close(), "closing the recall index");
    this.#imported.dispose();
  }
}
