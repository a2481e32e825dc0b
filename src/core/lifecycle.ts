import { background, onUnexpectedError } from "./util/unexpected";

/** Disposables for the engine, structurally compatible with `vscode.Disposable` (no vscode import). */
export interface Disposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** Owns a set of disposables; disposing the store disposes them in reverse order of addition. */
export class DisposableStore implements Disposable {
  #items: Disposable[] = [];
  #disposed = false;

  get isDisposed(): boolean {
    return this.#disposed;
  }

  add<T extends Disposable>(item: T): T {
    if (this.#disposed) {
      item.dispose();
      return item;
    }
    this.#items.push(item);
    return item;
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    const errors: unknown[] = [];
    for (const item of this.#items.reverse()) {
      try {
        item.dispose();
      } catch (err) {
        errors.push(err);
      }
    }
    this.#items = [];
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, "several disposables failed");
  }
}

/** A minimal typed event emitter (the engine's equivalent of `vscode.EventEmitter`). */
export class Emitter<T> implements Disposable {
  #listeners = new Set<(value: T) => void>();

  readonly event = (listener: (value: T) => void): Disposable => {
    this.#listeners.add(listener);
    return toDisposable(() => this.#listeners.delete(listener));
  };

  /** Calls every listener; one that throws (or rejects) is reported and does not keep the others from hearing. */
  fire(value: T): void {
    for (const listener of [...this.#listeners]) {
      try {
        const result: unknown = listener(value);
        if (isThenable(result)) background(result, "an event listener");
      } catch (err) {
        onUnexpectedError("an event listener", err);
      }
    }
  }

  dispose(): void {
    this.#listeners.clear();
  }
}

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  typeof v === "object" && v !== null && typeof (v as { then?: unknown }).then === "function";
