/**
 * Answers `elicitation/create` (form and url modes) through the front end's `ElicitationAsker`, and passes
 * `elicitation/complete` on. A form we cannot render, a URL that is not http(s), an unknown mode or no asker at
 * all is declined, and the thread gets a notice saying why. A request the agent withdraws (`$/cancel_request`,
 * seen as the handler's aborted signal) or a cancelled turn stops the question and answers `cancel`.
 *
 * What the person typed is not recorded: the thread's notice names the fields answered, never their values.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { errorMessage } from "../errors";
import type { ElicitationAnswer, ElicitationForm, ElicitationPrompt } from "../model/elicitation";
import { parseRequestedSchema, validateAnswer } from "./elicitation-form";
import type { EngineContext } from "./session-state";

type Request = acp.CreateElicitationRequest & { sessionId?: string; toolCallId?: string | null };

export async function handleCreateElicitation(
  ctx: EngineContext,
  params: acp.CreateElicitationRequest,
  signal?: AbortSignal,
): Promise<acp.CreateElicitationResponse> {
  const req = params as Request;
  const sessionId = typeof req.sessionId === "string" ? req.sessionId : undefined;
  const notice = (severity: "info" | "warning", title: string, description?: string) => {
    if (sessionId) ctx.emit(sessionId, { type: "notice", severity, title, ...(description ? { description } : {}) });
    else ctx.logger.info(`elicitation: ${title}${description ? ` — ${description}` : ""}`);
  };
  const message = typeof req.message === "string" ? req.message : "";
  const declined = (why: string): acp.CreateElicitationResponse => {
    notice("warning", "Declined the agent's question", `${why}${message ? `\nIt asked: ${message}` : ""}`);
    return { action: "decline" };
  };
  const shape = promptShape(req);
  if (!shape.ok) return declined(shape.reason);
  if (!ctx.elicitor) return declined("nobody is here to answer it");

  const abort = new AbortController();
  const onAbort = () => abort.abort();
  const session = sessionId ? ctx.session(sessionId) : undefined;
  // withdrawn already (read with the request: the signal aborted before this handler ran, see permission-handler.ts)
  if (session?.cancelling || signal?.aborted) return { action: "cancel" };
  session?.turnAbort.signal.addEventListener("abort", onAbort, { once: true });
  signal?.addEventListener("abort", onAbort, { once: true });
  const prompt = {
    ...shape.value,
    agentId: ctx.agentId,
    message,
    signal: abort.signal,
    ...(sessionId ? { sessionId } : {}),
    ...(typeof req.toolCallId === "string" ? { toolCallId: req.toolCallId } : {}),
  } as ElicitationPrompt;
  ctx.waitingForPermission(true);
  let answer: ElicitationAnswer | null;
  try {
    answer = await Promise.race([
      ctx.elicitor.ask(prompt),
      new Promise<null>((resolve) => abort.signal.addEventListener("abort", () => resolve(null), { once: true })),
    ]);
  } catch (err) {
    ctx.logger.warn("the elicitation prompt failed", err);
    return declined(`the prompt failed: ${errorMessage(err)}`);
  } finally {
    ctx.waitingForPermission(false);
    session?.turnAbort.signal.removeEventListener("abort", onAbort);
    signal?.removeEventListener("abort", onAbort);
  }
  if (abort.signal.aborted || answer === null) {
    if (signal?.aborted) notice("info", "The agent withdrew its question", message || undefined);
    return { action: "cancel" };
  }
  return settle(prompt, answer, notice, declined);
}

/** Checks an answer against the form (an asker bug must not send the agent bad content) and records it. */
function settle(
  prompt: ElicitationPrompt,
  answer: ElicitationAnswer,
  notice: (severity: "info" | "warning", title: string, description?: string) => void,
  declined: (why: string) => acp.CreateElicitationResponse,
): acp.CreateElicitationResponse {
  const what = prompt.mode === "url" ? `Open ${prompt.host}` : prompt.message || "A form";
  if (answer.action === "decline" || answer.action === "cancel") {
    notice(
      "info",
      answer.action === "decline" ? "Declined the agent's question" : "Dismissed the agent's question",
      what,
    );
    return { action: answer.action };
  }
  if (prompt.mode === "url") {
    notice("info", `Opened ${prompt.host} for the agent`, prompt.message || undefined);
    return { action: "accept" };
  }
  const checked = validateAnswer(prompt.form, answer.content ?? {});
  if (!checked.ok) {
    const problems = Object.entries(checked.errors).map(([k, v]) => `${k} ${v}`);
    return declined(`the answer did not fit the form: ${problems.join("; ")}`);
  }
  const names = Object.keys(checked.content);
  notice("info", "Answered the agent's question", `${what}\nFields: ${names.length ? names.join(", ") : "(none)"}`);
  return { action: "accept", content: checked.content };
}

type Shape =
  { mode: "form"; form: ElicitationForm } | { mode: "url"; elicitationId: string; url: string; host: string };

/** The mode-specific part of the prompt, or why the request cannot be shown. */
function promptShape(req: Request): { ok: true; value: Shape } | { ok: false; reason: string } {
  const raw = req as Record<string, unknown>;
  if (raw.mode === "form") {
    const form = parseRequestedSchema(raw.requestedSchema);
    return form.ok
      ? { ok: true, value: { mode: "form", form: form.value } }
      : { ok: false, reason: `Its form cannot be shown here: ${form.reason}.` };
  }
  if (raw.mode === "url") {
    if (typeof raw.elicitationId !== "string" || raw.elicitationId === "")
      return { ok: false, reason: "Its web page request has no elicitation id." };
    const url = typeof raw.url === "string" && URL.canParse(raw.url) ? new URL(raw.url) : undefined;
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:"))
      return { ok: false, reason: `It asked to open ${JSON.stringify(raw.url)}, which is not a web address.` };
    return { ok: true, value: { mode: "url", elicitationId: raw.elicitationId, url: url.href, host: url.host } };
  }
  return { ok: false, reason: `It uses the mode ${JSON.stringify(raw.mode)}, which this client does not know.` };
}

/** `elicitation/complete`: the agent says a URL elicitation finished. */
export function handleCompleteElicitation(ctx: EngineContext, params: acp.CompleteElicitationNotification): void {
  if (typeof params?.elicitationId !== "string") return;
  try {
    ctx.elicitor?.completed?.(params.elicitationId);
  } catch (err) {
    ctx.logger.warn("an elicitation-complete listener failed", err);
  }
}
