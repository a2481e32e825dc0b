/**
 * Where "Send review to agent" goes: the thread's live session (a stored thread is resumed first), its prompt
 * built for the agent once it is open — quotes as embedded resources when it advertises
 * `promptCapabilities.embeddedContext`, fenced text otherwise — and sent through the prompt box's path, so
 * while a turn runs it waits in the thread's queue like a typed follow-up. A thread the thread host holds gets it in
 * the host's queue, one whose next run belongs there starts that run with it (host-entry.ts), never a resume here.
 */
import * as vscode from "vscode";
import type { PromptPart } from "../../core/model/context";
import type { PromptCaps } from "../../core/prompt/blocks";
import { refOf } from "../../core/prompt/blocks";
import { reviewPromptParts, type ReviewComment } from "../../core/prompt/review";
import type { WirePart } from "../../webview/thread/protocol";
import type { ComposerHost } from "../composer/composer-host";
import type { LiveSession } from "../live-session";

export interface ReviewSendDeps {
  live(threadId: string): LiveSession | undefined;
  /** The thread host holds the thread, or its next run belongs there (host-entry.ts `goesToHost`). */
  inHost(threadId: string): Promise<boolean>;
  /** The prompt capabilities of the host's run of the thread, when a view here follows it (its session state). */
  hostedCaps(threadId: string): PromptCaps | null | undefined;
  composer: Pick<ComposerHost, "submit">;
}

const opened = (live: LiveSession): Promise<void> =>
  live.status !== "starting"
    ? Promise.resolve()
    : new Promise((resolve) => {
        const sub = live.onTurnDone(() => {
          sub.dispose();
          resolve();
        });
      });

export async function sendReviewPrompt(
  deps: ReviewSendDeps,
  threadId: string,
  comments: ReviewComment[],
  root: string,
  intro?: string,
): Promise<"sent" | "queued"> {
  let live = deps.live(threadId);
  // the thread host's run takes it (its queue, or its next run): the quotes embedded when the run's agent takes
  // embedded context (its session state, when a view here follows the run), fenced otherwise
  if (!live?.isOpen && (await deps.inHost(threadId))) {
    const embedded = deps.hostedCaps(threadId)?.embeddedContext === true;
    return deps.composer.submit(
      threadId,
      wireOf(reviewPromptParts(comments, { embedded, root, ...(intro?.trim() ? { intro } : {}) })),
    );
  }
  if (!live?.isOpen) {
    await vscode.commands.executeCommand("acpThreads.resume", threadId);
    live = deps.live(threadId);
  }
  if (!live?.isOpen)
    throw new Error("The thread could not be resumed; resume it from the Sessions view, then send the review again.");
  await opened(live); // its prompt capabilities are known once it is open
  if (!live.isOpen) throw new Error(`The thread did not start again: ${live.statusDetail ?? "its agent stopped"}.`);
  const parts = reviewPromptParts(comments, {
    embedded: live.promptCaps?.embeddedContext === true,
    root,
    ...(intro?.trim() ? { intro } : {}),
  });
  return deps.composer.submit(threadId, wireOf(parts));
}

const wireOf = (parts: PromptPart[]): WirePart[] =>
  parts.map((p) =>
    p.type === "text"
      ? p
      : { type: "context", ref: refOf(p.item), ...(p.item.content !== undefined ? { content: p.item.content } : {}) },
  );
