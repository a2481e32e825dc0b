/**
 * A permission question of the host as its events tell it (protocol.ts `HostEvent`, read by other tools,
 * `acp-threads events`, hooks and logs): the question without the edit it is about (the texts stay with the
 * thread's clients), its title and options' names as labels (env values and key-like strings left out,
 * option-label.ts), and, once answered, who answered with which option, named as the person saw it. A request
 * nobody was asked about (the permission policy or a remembered rule decided it) is told `answered` by the window's
 * own host and the editor's window sessions (vscode/api/questions.ts), its tool call's id as its request id.
 */
import type { PermissionDecision } from "../model/events";
import { labelledQuestion, optionLabel } from "../text/option-label";
import type { HostEvent, PendingQuestion } from "./protocol";

/** The question for status and events: no proposed edit, its title and option names as labels. */
export function announced(q: PendingQuestion): PendingQuestion {
  const { proposed: _proposed, ...rest } = q;
  return labelledQuestion(rest);
}

export function questionAnswered(q: PendingQuestion, optionId: string | null, by: string, at: string): HostEvent {
  const name = optionId === null ? undefined : q.options.find((o) => o.optionId === optionId)?.name;
  const { threadId, requestId } = q;
  return {
    kind: "answered",
    threadId,
    at,
    requestId,
    optionId,
    ...(name ? { optionName: optionLabel(name) } : {}),
    by,
  };
}

/** Who decided a request nobody was asked about, in the events' words; undefined: someone was asked (or cancelled). */
export function unaskedBy(d: Pick<PermissionDecision, "decidedBy">): "policy" | "remembered rule" | undefined {
  return d.decidedBy === "policy" ? "policy" : d.decidedBy === "remembered" ? "remembered rule" : undefined;
}

/** A decision the session recorded, as its `answered`: `requestId` the one announced for it (none: the tool call's). */
export function decisionAnswered(
  threadId: string,
  d: PermissionDecision,
  by: string,
  at: string,
  requestId = d.toolCallId,
): HostEvent {
  const optionName = d.optionName ? { optionName: d.optionName } : {};
  return { kind: "answered", threadId, at, requestId, optionId: d.optionId, ...optionName, by };
}
