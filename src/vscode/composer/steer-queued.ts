/**
 * "Send now" on a queued follow-up: when the agent takes steering, the message goes into the running turn and
 * leaves the queue (the transcript shows it as steered); otherwise it stays queued and the panel says why. Never
 * a silent interrupt: the running turn is not cancelled.
 */
import type { ContextSources } from "../../core/prompt/blocks";
import type { LiveSession } from "../live-session";
import type { PromptQueues } from "./prompt-queue";
import { resolveParts } from "./resolve";

export interface SteerQueuedDeps {
  queues: PromptQueues;
  sources: () => ContextSources;
  /** Whether a mentioned thread is stored (looked up off the host's thread). */
  threadExists: (id: string) => Promise<boolean>;
  notice: (message: string, severity: "error" | "info") => void;
  postQueue: () => void;
}

export async function steerQueued(live: LiveSession | undefined, id: string, deps: SteerQueuedDeps): Promise<void> {
  if (!live?.isOpen) return deps.notice("This thread is not running anymore.", "error");
  const item = deps.queues.list(live.threadId).find((q) => q.id === id);
  if (!item) return; // already sent or removed
  const blocked = live.steerBlocked;
  if (blocked) return deps.notice(`${blocked}.`, "info");
  if (!live.busy) return deps.notice("The turn has ended: the message is sent next, from the queue.", "info");
  const outcome = await live.steer(await resolveParts(item.parts, (t) => deps.threadExists(t)), deps.sources());
  if (outcome === "promptRequired")
    return deps.notice("The turn had just ended: the message stays queued and is sent next.", "info");
  deps.queues.take(live.threadId, id);
  deps.postQueue();
}
