/**
 * A thread host's permission question as this window asks it (hosted-thread-view.ts): the permission broker's
 * prompt for the card and the notification, as a window session's agent's request would be: the tool call it is
 * about (its id, title and kind), the agent's options, and the edit asked about for the card's Review.
 */
import type { PendingQuestion } from "../../core/host/protocol";
import type { PermissionPrompt } from "../../core/ports";

export function questionPrompt(question: PendingQuestion, signal: AbortSignal): PermissionPrompt {
  return {
    sessionId: "",
    agentId: "",
    signal,
    requestId: question.requestId, // the card's id is the host's (its events name the question by it)
    // the edit asked about: the card's Review opens the diff, as for a window session's write
    ...(question.proposed ? { proposed: question.proposed } : {}),
    request: {
      sessionId: "",
      toolCall: {
        toolCallId: question.toolCallId ?? `host:${question.requestId}`,
        title: question.title,
        // its kind as the agent named it (a host of an older build sends none: the card says `other`)
        ...(typeof question.toolKind === "string" ? { kind: question.toolKind } : {}),
      },
      options: question.options.map((o) => ({
        optionId: o.optionId,
        name: o.name,
        kind: o.kind as "allow_once",
      })),
    },
  };
}
