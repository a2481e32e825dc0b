/**
 * Follow-ups queued while a turn runs go out one by one as turns end: each on the tick after the turn's end
 * handlers ran (status idle). One drainer per thread; it stops when the queue is empty or the session closed (a
 * closed session's queue is dropped).
 */
import { errorMessage } from "../../core/errors";
import type { PromptPart } from "../../core/model/context";
import { background } from "../../core/util/unexpected";
import type { WirePart } from "../../webview/thread/protocol";
import type { LiveSession } from "../live-session";
import type { ComposerPanel } from "./composer-panel";
import type { PromptQueues } from "./prompt-queue";

export interface QueueDrainDeps {
  readonly queues: PromptQueues;
  /** The wire parts of a queued prompt as prompt parts (rejects on a part that no longer resolves). */
  resolve(wire: WirePart[]): Promise<PromptPart[]>;
  postQueue(panel: ComposerPanel): void;
  /** Sends one prompt; resolves once the turn started. */
  run(panel: ComposerPanel, live: LiveSession, wire: WirePart[], parts: PromptPart[]): Promise<void>;
}

export class QueueDrain {
  readonly #draining = new Set<string>();

  constructor(private readonly deps: QueueDrainDeps) {}

  /** Sends the thread's queued prompts as its turns end (a no-op while a drainer runs for it). */
  whenIdle(panel: ComposerPanel, live: LiveSession): void {
    if (this.#draining.has(live.threadId)) return;
    this.#draining.add(live.threadId);
    const sub = live.onTurnDone(() => {
      setTimeout(() => background(this.#sendNext(panel, live, stop), "sending a queued prompt"), 0);
    });
    const stop = () => {
      this.#draining.delete(live.threadId);
      sub.dispose();
      if (!live.isOpen) this.deps.queues.clear(live.threadId);
    };
  }

  /**
   * Sends the next queued prompt. Its mentions are looked up first (off the host's thread) while it is still first
   * in the queue, so a prompt typed meanwhile queues behind it; `stop` once the queue is empty or the session closed.
   */
  async #sendNext(panel: ComposerPanel, live: LiveSession, stop: () => void): Promise<void> {
    if (live.busy) return;
    const head = this.deps.queues.list(live.threadId)[0];
    const resolved =
      head &&
      (await this.deps.resolve(head.parts).then(
        (parts) => ({ parts }),
        (err: unknown) => ({ err }),
      ));
    if (live.busy) return; // a prompt went meanwhile: its turn's end sends this one
    if (head && this.deps.queues.list(live.threadId)[0] !== head) return await this.#sendNext(panel, live, stop); // taken back or removed meanwhile
    const next = this.deps.queues.shift(live.threadId);
    this.deps.postQueue(panel);
    if (!next || !resolved || !live.isOpen) return stop();
    if ("err" in resolved) {
      panel.post({ type: "composerNotice", message: errorMessage(resolved.err), severity: "error" });
      panel.post({ type: "editPrompt", parts: next.parts });
      return;
    }
    await this.deps.run(panel, live, next.parts, resolved.parts);
  }
}
