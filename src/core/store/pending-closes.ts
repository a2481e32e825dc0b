/**
 * The thread store's closes still under way in this process: handles closed off the caller's thread (durability
 * "soon", JsonlWriter.closeSoon) whose file is not yet durable, closed and unlocked. A reopen waits for such a close
 * (`whenClosed`); a synchronous open or delete finishes it on the caller's thread first (`finish`).
 */
import { AcpThreadsError } from "../errors";
import { background } from "../util/unexpected";
import type { JsonlWriter } from "./jsonl-writer";

export class PendingCloses {
  /** The writer whose close is under way, per thread. */
  readonly #closing = new Map<string, JsonlWriter>();

  has(threadId: string): boolean {
    return this.#closing.has(threadId);
  }

  /** Follows the close of `writer` (`pending`, never rejecting); `closed` is called once it is complete. */
  track(threadId: string, writer: JsonlWriter, pending: Promise<void>, closed: () => void): void {
    this.#closing.set(threadId, writer);
    background(
      pending.then(() => {
        if (this.#closing.get(threadId) === writer) this.#closing.delete(threadId);
        closed();
      }),
      "telling of a closed thread",
    );
  }

  /**
   * Resolves once a close of `threadId` under way is complete: the file durable, closed and unlocked. At once when
   * there is none.
   */
  async whenClosed(threadId: string): Promise<void> {
    await this.#closing.get(threadId)?.closing;
  }

  /** Resolves once every close under way is complete. */
  async whenAllClosed(): Promise<void> {
    await Promise.all([...this.#closing.keys()].map((id) => this.whenClosed(id)));
  }

  /**
   * A synchronous open or delete of a thread still closing: the close is finished here first (durable, unlocked).
   * Only when its asynchronous release is already under way (a moment) does the caller have to wait: it is told so
   * (the window's callers await `whenClosed` first and never see it).
   */
  finish(threadId: string): void {
    const writer = this.#closing.get(threadId);
    if (!writer || writer.finishClose()) return;
    throw new AcpThreadsError(
      "locked",
      `thread ${threadId} is still being closed by this process; try again in a moment`,
      { pid: process.pid },
    );
  }

  /** Every close under way finished on the caller's thread (a synchronous exit): durable and unlocked on return. */
  finishAll(): void {
    for (const writer of this.#closing.values()) writer.finishClose();
  }
}
