/**
 * The permission requests of the window's own sessions as thread events (#35 item 4), in the shapes the thread
 * host's `events` gives for its sessions: each new pending request of the permission broker is announced
 * (needs_input, with the broker's request id and the tool call it is about) and each decision the session reports
 * is `answered`, saying who answered: this window (its name, as the thread host names it to other clients), the
 * policy, a remembered rule, or the agent (cancelled: the turn stopped). A decision nobody was asked about (policy,
 * rule) carries the tool call's id as its request id. No vscode import: unit-tested alone.
 */
import type { HostEvent } from "../../core/host/protocol";
import { decisionAnswered, unaskedBy } from "../../core/host/question-events";
import type { PermissionDecision } from "../../core/model/events";
import { labelledQuestion } from "../../core/text/option-label";
import type { PermissionView } from "../../webview/thread/protocol";

/** The host's words for a request the turn's cancel closed (hosted-thread.ts). */
export const CANCELLED_BY = "the agent (cancelled)";

/**
 * Who answered a decision of a window session; `window`: this window's name. A person's answer names whom the
 * decision names (the permission broker's asker: this window, as the thread's record says), else this window.
 */
export function answeredBy(d: PermissionDecision, window: string): string {
  if (d.decidedBy === "user") return d.answeredBy ?? window;
  return unaskedBy(d) ?? CANCELLED_BY;
}

export class Questions {
  /** Per thread: the requests pending when last looked. */
  readonly #pending = new Map<string, Set<string>>();
  /** Per thread: the request id announced for each tool call (its decision's `answered` carries it). */
  readonly #asked = new Map<string, Map<string, string>>();

  /** `window`: this window's name (who answered a request its card, notification or diff answered). */
  constructor(private readonly window: string) {}

  /** A thread's pending requests now: needs_input for each one not announced before. */
  pending(threadId: string, pending: readonly PermissionView[], at: string): HostEvent[] {
    const before = this.#pending.get(threadId) ?? new Set<string>();
    this.#pending.set(threadId, new Set(pending.map((p) => p.requestId)));
    const fresh = pending.filter((p) => !before.has(p.requestId));
    const asked = this.#asked.get(threadId) ?? new Map<string, string>();
    this.#asked.set(threadId, asked);
    return fresh.map((p) => {
      if (p.toolCallId) asked.set(p.toolCallId, p.requestId);
      // as the host's events tell it (core/host/question-events.ts): names as labels, without env values or keys
      const { requestId, toolCallId, title, options } = labelledQuestion(p);
      return {
        kind: "needs_input",
        threadId,
        at,
        question: { threadId, requestId, ...(toolCallId ? { toolCallId } : {}), title, options },
      };
    });
  }

  /** A decision the session reported: who answered, for the request announced for its tool call. */
  decided(threadId: string, d: PermissionDecision, at: string): HostEvent {
    const asked = this.#asked.get(threadId);
    const requestId = asked?.get(d.toolCallId);
    asked?.delete(d.toolCallId);
    return decisionAnswered(threadId, d, answeredBy(d, this.window), at, requestId);
  }

  forget(threadId: string): void {
    this.#pending.delete(threadId);
    this.#asked.delete(threadId);
  }
}
