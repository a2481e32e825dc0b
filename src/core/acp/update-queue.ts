/**
import { background } from "../util/unexpected";
 * Runs work strictly in order per key (one key per session).
 *
 * The SDK dispatches notifications without waiting for async handlers, so two `session/update`s for the same
 * session can otherwise be applied out of order as soon as one handler awaits. Synchronous tasks on an idle
 * queue run at once (no promise per update on the hot path); everything else chains.
 */
export class UpdateQueue {
  #tails = new Map<string, Promise<void>>();
  readonly #onError: (err: unknown) => void;

  constructor(onError: (err: unknown) => void = () => {}) {
    this.#onError = onError;
  }

  /** Queues `task` behind earlier tasks for `key`. Errors go to `onError` and never block the queue. */
  run(key: string, task: () => void | Promise<void>): void {
    const tail = this.#tails.get(key);
    if (!tail) {
      let result: void | Promise<void>;
      try {
        result = task();
      } catch (err) {
        this.#onError(err);
        return;
      }
      if (result instanceof Promise) this.#track(key, result.catch(this.#onError));
      return;
    }
    this.#track(
      key,
      tail.then(async () => {
        try {
          await task();
        } catch (err) {
          this.#onError(err);
        }
      }),
    );
  }

  /** Resolves once every task queued for `key` so far has finished. */
  async idle(key: string): Promise<void> {
    for (let tail = this.#tails.get(key); tail; tail = this.#tails.get(key)) await tail;
  }

  #track(key: string, p: Promise<void>): void {
    this.#tails.set(key, p);
    // `p` never rejects: run() catches each task's error and reports it to the queue's handler
    const forget = () => {
      if (this.#tails.get(key) === p) this.#tails.delete(key);
    };
    p.then(forget, forget);
  }
}
