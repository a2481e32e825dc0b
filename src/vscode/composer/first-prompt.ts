/**
 * The first prompt of a session the prompt box started (a new thread's, or a past thread's it resumed, #37): it
 * goes like any other once the agent is ready, so a prompt the agent refuses comes back into the box with the
 * reason.
 */
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
