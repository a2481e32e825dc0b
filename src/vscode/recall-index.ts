/**
 * The recall of this window, owned by the Hub: the engine requests run off the extension host's thread in the
 * engine worker (core/engine/worker.ts; the extension host never opens the index itself), started on first use and
 * closed when the Hub shuts down or is disposed. Imports go through `RecallImports` (one at a time, compacted
 * after). `onDidImport` fires after an import so an open Recall view re-runs its search with the new sessions.
 */
import { join } from "node:path";
import * as vscode from "vscode";
import { RecallImports } from "../core/engine/import-job";
import { workerEngine, type WorkerEngine } from "../core/engine/worker";
import { background } from "../core/util/unexpected";

export class RecallIndex implements vscode.Disposable {
  #engine: { engine: WorkerEngine; imports: RecallImports } | undefined;
  readonly #imported = new vscode.EventEmitter<void>();
  readonly onDidImport = this.#imported.event;

  constructor(
    private readonly extensionPath: string,
    private readonly home: string,
  ) {}

  #started() {
    if (this.#engine) return this.#engine;
    const engine = workerEngine({ script: join(this.extensionPath, "dist", "engine-worker.js"), home: this.home });
    return (this.#engine = { engine, imports: new RecallImports(engine) });
  }

  /** The engine, off this thread: started on first use. */
  engine(): WorkerEngine {
    return this.#started().engine;
  }

  /** Imports history (one import at a time, searches answer meanwhile). */
  get imports(): RecallImports {
    return this.#started().imports;
  }

  /** Tells open views that new sessions were imported. */
  imported(): void {
    this.#imported.fire();
  }

  /** Cancels a running import and closes the engine worker (it starts again on the next use). */
  async close(): Promise<void> {
    const e = this.#engine;
    this.#engine = undefined;
    e?.imports.close();
    await e?.engine.close();
  }

  dispose(): void {
    background(this.close(), "closing the recall index");
    this.#imported.dispose();
  }
}
