/**
 * Answers `session/request_permission` (and the engine's own question before an unrequested
 * `fs/write_text_file`): remembered rule → policy → asker → decision, each one emitted as a `permission`
 * event and appended to the audit log.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { PermissionDecision } from "../model/events";
import type { PermissionPrompt } from "../ports";
import { editPaths, permissionPath, pickOption, policyVerdict } from "./permission-policy";
import type { EngineContext, SessionState } from "./session-state";

type Decided = { option: acp.PermissionOption | undefined; decidedBy: PermissionDecision["decidedBy"] };

export async function handleRequestPermission(
  ctx: EngineContext,
  params: acp.RequestPermissionRequest,
  signal?: AbortSignal,
): Promise<acp.RequestPermissionResponse> {
  const session = ctx.session(params.sessionId);
  const known = session.tools.get(params.toolCall.toolCallId);
  const kind = params.toolCall.kind ?? known?.kind ?? "other";
  const title = params.toolCall.title ?? known?.title ?? "";
  const merged: acp.ToolCallUpdate = {
    ...params.toolCall,
    locations: params.toolCall.locations ?? known?.locations,
    content: params.toolCall.content ?? known?.content,
  };
  const path = permissionPath(merged);
  const decided = await decide(ctx, session, params, kind, path, merged, signal);
  const decision: PermissionDecision = {
    toolCallId: params.toolCall.toolCallId,
    title,
    kind,
    optionId: decided.option?.optionId ?? null,
    optionKind: decided.option?.kind ?? null,
    decidedBy: decided.decidedBy,
    options: params.options,
  };
  record(ctx, session, decision, path);
  const allowed = decided.option?.kind === "allow_once" || decided.option?.kind === "allow_always";
  if (allowed && decided.decidedBy === "user" && decided.option?.kind === "allow_always") {
    await ctx.store.remember(ctx.agentId, kind, path);
  }
  if (allowed) for (const p of editPaths(merged)) session.approvedEdits.add(p);
  return decided.option
    ? { outcome: { outcome: "selected", optionId: decided.option.optionId } }
    : { outcome: { outcome: "cancelled" } };
}

async function decide(
  ctx: EngineContext,
  session: SessionState,
  params: acp.RequestPermissionRequest,
  kind: string,
  path: string,
  toolCall: acp.ToolCallUpdate,
  signal: AbortSignal | undefined,
): Promise<Decided> {
  if (session.cancelling) return { option: undefined, decidedBy: "cancelled" };
  // A "no" without any reject option offered can only be expressed as `cancelled` (e.g. Claude's plan exit).
  const no = (decidedBy: Decided["decidedBy"]): Decided => ({
    option: pickOption(params.options, "reject"),
    decidedBy,
  });
  if (ctx.store.isRemembered(ctx.agentId, kind, path)) {
    return { option: pickOption(params.options, "allow", true), decidedBy: "remembered" };
  }
  const verdict = policyVerdict(ctx.policy, kind);
  if (verdict === "allow") return { option: pickOption(params.options, "allow"), decidedBy: "policy" };
  if (verdict === "deny" || !ctx.asker) return no("policy");

  const abort = new AbortController();
  const onAbort = () => abort.abort();
  session.turnAbort.signal.addEventListener("abort", onAbort, { once: true });
  signal?.addEventListener("abort", onAbort, { once: true });
  const diff = toolCall.content?.find((c) => c.type === "diff");
  const prompt: PermissionPrompt = {
    sessionId: params.sessionId,
    agentId: ctx.agentId,
    request: params,
    signal: abort.signal,
    ...(diff && diff.type === "diff"
      ? { proposed: { path: diff.path, oldText: diff.oldText ?? null, newText: diff.newText } }
      : {}),
  };
  ctx.waitingForPermission(true);
  try {
    const answer = await Promise.race([
      ctx.asker.ask(prompt),
      new Promise<null>((resolve) => abort.signal.addEventListener("abort", () => resolve(null), { once: true })),
    ]);
    if (abort.signal.aborted) return { option: undefined, decidedBy: "cancelled" };
    const option = answer === null ? undefined : params.options.find((o) => o.optionId === answer);
    return option ? { option, decidedBy: "user" } : no("user");
  } finally {
    ctx.waitingForPermission(false);
    session.turnAbort.signal.removeEventListener("abort", onAbort);
    signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * The engine's own permission check for a `fs/write_text_file` that no approved permission covered.
 * Returns true when the write may proceed.
 */
export async function checkWritePermission(
  ctx: EngineContext,
  session: SessionState,
  path: string,
  oldText: string | null,
  newText: string,
): Promise<boolean> {
  if (session.approvedEdits.has(path)) return true;
  const request: acp.RequestPermissionRequest = {
    sessionId: session.sessionId,
    toolCall: {
      toolCallId: `fs-write:${path}`,
      title: `Write ${path}`,
      kind: "edit",
      locations: [{ path }],
      content: [{ type: "diff", path, oldText, newText }],
    },
    options: [
      { optionId: "allow", name: "Allow", kind: "allow_once" },
      { optionId: "allow-always", name: "Always allow", kind: "allow_always" },
      { optionId: "reject", name: "Reject", kind: "reject_once" },
    ],
  };
  const response = await handleRequestPermission(ctx, request);
  return response.outcome.outcome === "selected" && response.outcome.optionId !== "reject";
}

function record(ctx: EngineContext, session: SessionState, decision: PermissionDecision, path: string): void {
  ctx.emit(session.sessionId, { type: "permission", decision });
  try {
    ctx.store.audit({
      at: new Date().toISOString(),
      agentId: ctx.agentId,
      sessionId: session.sessionId,
      toolCallId: decision.toolCallId,
      title: decision.title,
      kind: decision.kind,
      path,
      policy: ctx.policy,
      decidedBy: decision.decidedBy,
      optionKind: decision.optionKind,
      optionId: decision.optionId,
    });
  } catch (err) {
    ctx.logger.warn("could not append to the permission audit log", err);
  }
}
