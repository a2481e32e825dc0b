/**
 * The elicitations of the window's own sessions as thread events (#35 item 4), in the shapes the thread host gives
 * for its runs (core/host/host-elicitation.ts): needs_input when the agent asks (its message as the question's
 * title, no options, what it asks for in `elicitation`), then `answered` with its action: by this window when its
 * steps answered it, by the agent when it withdrew the request or the turn was cancelled. No vscode import:
 * unit-tested alone.
 */
import { randomUUID } from "node:crypto";
import { elicitationAnswered, elicitationNeedsInput, pendingElicitation } from "../../core/host/host-elicitation";
import type { HostEvent } from "../../core/host/protocol";
import type { ElicitationAnswer, ElicitationAsker } from "../../core/model/elicitation";
import { CANCELLED_BY } from "./questions";

const now = () => new Date().toISOString();

/** `inner` (the window's elicitation steps) for `threadId`, its asks and answers told to `fire`. */
export function announcedElicitor(
  threadId: string,
  inner: ElicitationAsker,
  window: string,
  fire: (e: HostEvent) => void,
): ElicitationAsker {
  return {
    ...inner,
    ask: async (prompt) => {
      const asked = pendingElicitation(threadId, randomUUID(), prompt);
      fire(elicitationNeedsInput(asked, now()));
      let answer: ElicitationAnswer = { action: "cancel" };
      try {
        answer = await inner.ask(prompt);
        return answer;
      } finally {
        fire(elicitationAnswered(asked, answer.action, prompt.signal.aborted ? CANCELLED_BY : window, now()));
      }
    },
  };
}
