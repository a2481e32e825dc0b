/**
 * The first prompt of a session the prompt box started (a new thread's, or a past thread's it resumed, #37): it
 * goes like any other once the agent is ready, so a prompt the agent refuses comes back into the box with the
 * reason.
 */
import { errorMessage } from "../../core/errors";
import { background } from "../../core/util/unexpected";
import type { LiveSession } from "../live-session";

/** `giveBack`: called instead of `send` when the session did not open (its failure is in the transcript). */
export function sendWhenReady(live: LiveSession, send: () => Promise<void>, giveBack?: () => void): void {
  const sub = live.onTurnDone(() => {
    sub.dispose();
    if (live.isOpen && !live.busy) background(send(), "sending the first prompt");
    else if (!live.isOpen) giveBack?.();
  });
}

/**
 * A prompt typed in a thread no session runs (past, finished, failed) resumes it (#37), then is sent. `resume`:
 * undefined when there is no stored thread to resume; it resolves undefined when another window writes the
 * thread (the panel follows it and says so). `giveBack` puts the prompt back into the box.
 */
export async function resumeAndSend(
  threadId: string,
  resume: ((threadId: string) => Promise<LiveSession | undefined>) | undefined,
  send: (live: LiveSession) => Promise<void>,
  giveBack: () => void,
  notice: (message: string) => void,
): Promise<void> {
  let live: LiveSession | undefined;
  try {
    if (!resume) throw new Error("This session never started, so there is no thread to resume: open a new thread.");
    live = await resume(threadId);
  } catch (err) {
    giveBack();
    return notice(errorMessage(err));
  }
  if (!live) return giveBack();
  const resumed = live;
  sendWhenReady(resumed, () => send(resumed), giveBack);
}
