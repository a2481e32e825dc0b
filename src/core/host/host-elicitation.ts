/**
 * An agent's elicitation in a hosted run, on the wire (#35): the prompt the engine hands the host's asker, as the
 * `elicitation` push its thread's attached clients get, and a client's answer checked before it can win: a known
 * action, and for a form's `accept` content that fits the form (core/acp/elicitation-form.ts). A malformed answer
 * is refused and the elicitation stays pending for the others.
 */
import { validateAnswer } from "../acp/elicitation-form";
import type { ElicitationAnswer, ElicitationPrompt } from "../model/elicitation";
import type { HostEvent, PendingElicitation } from "./protocol";

export function pendingElicitation(threadId: string, requestId: string, p: ElicitationPrompt): PendingElicitation {
  const base = { threadId, requestId, message: p.message, ...(p.toolCallId ? { toolCallId: p.toolCallId } : {}) };
  return p.mode === "url"
    ? { ...base, mode: "url", elicitationId: p.elicitationId, url: p.url, host: p.host }
    : { ...base, mode: "form", form: p.form };
}

/**
 * The `needs_input` event of an elicitation (additive to a permission question's: its message as the question's
 * title, no options, and what it asks for in `elicitation`).
 */
export function elicitationNeedsInput(e: PendingElicitation, at: string): HostEvent {
  const { threadId, requestId, message, toolCallId } = e;
  return {
    kind: "needs_input",
    threadId,
    at,
    question: { threadId, requestId, ...(toolCallId ? { toolCallId } : {}), title: message, options: [] },
    elicitation:
      e.mode === "url" ? { mode: "url", host: e.host } : { mode: "form", fields: e.form.fields.map((f) => f.name) },
  };
}

/** An elicitation's `answered` event: who settled it, and how (no option). */
export function elicitationAnswered(
  e: PendingElicitation,
  action: ElicitationAnswer["action"],
  by: string,
  at: string,
): HostEvent {
  return { kind: "answered", threadId: e.threadId, at, requestId: e.requestId, optionId: null, by, action };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A client's answer to `e`, checked; throws saying what is wrong with it. */
export function checkedElicitationAnswer(e: PendingElicitation, raw: unknown): ElicitationAnswer {
  if (!isObject(raw)) throw new Error("the answer is not an object");
  const { action, content } = raw;
  if (action === "decline" || action === "cancel") {
    if (content !== undefined) throw new Error(`a ${action} carries no content`);
    return { action };
  }
  if (action !== "accept") throw new Error(`unknown action ${JSON.stringify(action)}`);
  if (e.mode === "url") {
    if (content !== undefined) throw new Error("the answer to a web page request carries no content");
    return { action };
  }
  if (content !== undefined && !isObject(content)) throw new Error("the answer's content is not an object");
  const checked = validateAnswer(e.form, content ?? {});
  if (!checked.ok)
    throw new Error(
      `the answer does not fit the form: ${Object.entries(checked.errors)
        .map(([k, v]) => `${k} ${v}`)
        .join("; ")}`,
    );
  return { action, content: checked.content };
}
