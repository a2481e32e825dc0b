/**
 * Follow-ups typed while a turn runs: kept per thread in order, shown in the prompt box (editable by taking
 * one back into the box, removable), and sent one at a time when a turn ends.
 */
import { randomUUID } from "node:crypto";
import { partsText, type QueuedPrompt, type WirePart } from "../../webview/thread/protocol";

export class PromptQueues {
  readonly #queues = new Map<string, QueuedPrompt[]>();

  list(threadId: string): QueuedPrompt[] {
    return this.#queues.get(threadId) ?? [];
  }

  add(threadId: string, parts: WirePart[]): QueuedPrompt {
    const q: QueuedPrompt = { id: randomUUID(), parts, text: partsText(parts) };
    this.#queues.set(threadId, [...this.list(threadId), q]);
    return q;
  }

  /** Removes and returns one item (undefined when it was already sent or removed). */
  take(threadId: string, id: string): QueuedPrompt | undefined {
    const list = this.list(threadId);
    const item = list.find((q) => q.id === id);
    if (item)
      this.#queues.set(
        threadId,
        list.filter((q) => q !== item),
      );
    return item;
  }

  /** The next prompt to send, removed from the queue. */
  shift(threadId: string): QueuedPrompt | undefined {
    const [first, ...rest] = this.list(threadId);
    this.#queues.set(threadId, rest);
    return first;
  }

  clear(threadId: string): void {
    this.#queues.delete(threadId);
  }
}
