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
  /** The wire parts of a queued prompt as prompt parts (throws on a part that no longer resolves). */
  resolve(wire: WirePart[]): PromptPart[];
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
      setTimeout(() => {
        if (live.busy) return;
        const next = this.deps.queues.shift(live.threadId);
        this.deps.postQueue(panel);
        if (!next || !live.isOpen) {
          this.#draining.delete(live.threadId);
          sub.dispose();
          if (!live.isOpen) this.deps.queues.clear(live.threadId);
          return;
        }
        try {
          background(this.deps.run(panel, live, next.parts, this.deps.resolve(next.parts)), "sending a queued prompt");
        } catch (err) {
          panel.post({ type: "composerNotice", message: errorMessage(err), severity: "error" });
          panel.post({ type: "editPrompt", parts: next.parts });
        }
      }, 0);
    });
  }
}
