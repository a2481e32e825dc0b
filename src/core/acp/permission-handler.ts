/**
 * Answers `session/request_permission` (and the engine's own questions before an effect nobody asked about,
 * effect-gate.ts): rules → outside the workspace → policy (permission-decision.ts) → asker → decision, each one
 * emitted as a `permission` event with the rule and the reason that decided it, and appended to the audit log.
 *
 * "Always allow" remembers a rule for exactly what the request is about (permission-key.ts: the command line the
 * user saw, or the path), in this workspace, or everywhere when the user picks the engine's extra "Always allow
 * (everywhere)" option; for a command of three words or more, the extra "Always allow: npm run *" remembers it
 * widened as the person saw it written (widenedCommand). A request that cannot be keyed is answered as "once" and the user is told why; a rule that
 * cannot be saved is reported, and the answer still reaches the agent.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { errorMessage } from "../errors";
import type { PermissionDecision } from "../model/events";
import type { PermissionPrompt } from "../ports";
import { decidePermission, resolvedPath, type Verdict } from "./permission-decision";
import { canonicalCommand } from "./permission-rules";
import { executeCommandLine, requestKey, widenedCommand, withoutEnvValues, type PermissionKey } from "./permission-key";
import {
  ALWAYS_EVERYWHERE_OPTION_ID,
  ALWAYS_WIDER_OPTION_ID,
  editPaths,
  permissionPath,
  pickOption,
} from "./permission-policy";
import { EVERYWHERE } from "./permission-store";
import { optionLabel } from "../text/option-label";
import type { EngineContext, SessionState } from "./session-state";

type Decided = {
  option: acp.PermissionOption | undefined;
  /** The name the person picked when it is not the option's own (the engine's "Always allow (everywhere)"). */
  label?: string;
  decidedBy: PermissionDecision["decidedBy"];
  /** Who answered, where the asker names them (a client of the thread host). */
  answeredBy?: string;
  /** "workspace" / "everywhere" when the user chose to remember the answer. */
  remember?: "workspace" | "everywhere";
  /** The pattern to remember instead of the exact request (the person widened it in the prompt). */
  pattern?: string;
  rule?: string;
  reason: string;
  outside: string[];
};

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
    title,
    rawInput: params.toolCall.rawInput ?? known?.rawInput,
    locations: params.toolCall.locations ?? known?.locations,
    content: params.toolCall.content ?? known?.content,
  };
  const path = permissionPath(merged);
  // a path rule is about the file itself: the path as the rules match it (absolute, symlinks resolved)
  const key = requestKey(kind, merged, path === undefined ? undefined : await resolvedPath(path, session.cwd));
  let decided = await decide(ctx, session, params, kind, key, merged, signal);
  if (decided.remember) decided = await remember(ctx, session, params, kind, key, decided);
  const decision: PermissionDecision = {
    toolCallId: params.toolCall.toolCallId,
    // an env value may be a secret: the decision is kept in the thread and the audit log with the names only
    title: kind === "execute" ? withoutEnvValues(title) : title,
    kind,
    optionId: decided.option?.optionId ?? null,
    optionKind: decided.option?.kind ?? null,
    // the name may embed the command it allows, with its env values: kept with the names only, no key-like strings
    ...(decided.option ? { optionName: optionLabel(decided.label ?? decided.option.name) } : {}),
    decidedBy: decided.decidedBy,
    ...(decided.answeredBy ? { answeredBy: decided.answeredBy } : {}),
    options: params.options,
    ...(decided.rule ? { rule: decided.rule } : {}),
    reason: decided.reason,
    outside: decided.outside,
  };
  record(ctx, session, decision, key.ok ? key.key : "");
  const allowed = decided.option?.kind === "allow_once" || decided.option?.kind === "allow_always";
  if (allowed) noteApproved(session, kind, merged);
  return decided.option
    ? { outcome: { outcome: "selected", optionId: decided.option.optionId } }
    : { outcome: { outcome: "cancelled" } };
}

/**
 * What an approval covers for the rest of the turn, so the effect that follows is not asked again: exactly the
 * approved effect. An edit covers writes to its paths, a read reads of its paths, a command that same line (with
 * the same env); search, think, fetch and the rest cover nothing.
 */
function noteApproved(session: SessionState, kind: string, toolCall: acp.ToolCallUpdate): void {
  const into = EDIT_KINDS.has(kind) ? session.approvedEdits : kind === "read" ? session.approvedReads : undefined;
  if (into) for (const p of editPaths(toolCall)) into.add(p);
  if (kind !== "execute") return;
  const line = executeCommandLine(toolCall);
  if (line) session.approvedCommands.add(canonicalCommand(line));
}

const EDIT_KINDS: ReadonlySet<string> = new Set(["edit", "delete", "move"]);

/** The decision before anyone is asked, for this session (its agent, policy, roots and workspace). */
export async function sessionVerdict(
  ctx: EngineContext,
  session: SessionState,
  kind: string,
  toolCall: acp.ToolCallUpdate,
): Promise<Verdict> {
  const { store, agentId, workspace, policy, guard } = ctx;
  return await decidePermission({ store, agentId, workspace, policy, guard, cwd: session.cwd, kind, toolCall });
}

async function decide(
  ctx: EngineContext,
  session: SessionState,
  params: acp.RequestPermissionRequest,
  kind: string,
  key: PermissionKey,
  toolCall: acp.ToolCallUpdate,
  signal: AbortSignal | undefined,
): Promise<Decided> {
  const cancelled: Decided = { option: undefined, decidedBy: "cancelled", reason: "cancelled", outside: [] };
  if (session.cancelling) return cancelled;
  const v = await sessionVerdict(ctx, session, kind, toolCall);
  // the agent withdrew the request already: the SDK applies a `$/cancel_request` as it reads it, this handler runs
  // later (a withdrawal read with the request, or during the verdict's await), and an "abort" listener added to an
  // aborted signal never fires: nobody is asked
  if (session.cancelling || signal?.aborted) return { ...cancelled, outside: v.outside };
  const said = { ...(v.rule ? { rule: v.rule } : {}), outside: v.outside };
  // A "no" without any reject option offered can only be expressed as `cancelled` (e.g. Claude's plan exit).
  const no = (decidedBy: Decided["decidedBy"], reason: string): Decided => ({
    option: pickOption(params.options, "reject"),
    decidedBy,
    reason,
    ...said,
  });
  if (v.verdict === "allow") {
    const option = pickOption(params.options, "allow", v.decidedBy === "remembered");
    return { option, decidedBy: v.decidedBy, reason: v.reason, ...said };
  }
  if (v.verdict === "deny") return no(v.decidedBy, v.reason);
  if (!ctx.asker) return no(v.decidedBy, `refused: ${v.reason} (nobody can be asked)`);
  const asked = `asked: ${v.reason}`;

  const always = params.options.find((o) => o.kind === "allow_always");
  // outside the roots only the exact path may be remembered; a command may be widened by the person, never by us
  const wider = kind === "execute" && !v.outside.length ? widenedCommand(key) : undefined;
  const offered =
    always && key.ok
      ? [
          ...params.options,
          { optionId: ALWAYS_EVERYWHERE_OPTION_ID, name: `${always.name} (everywhere)`, kind: "allow_always" as const },
          ...(wider
            ? [{ optionId: ALWAYS_WIDER_OPTION_ID, name: `${always.name}: ${wider}`, kind: "allow_always" as const }]
            : []),
        ]
      : params.options;
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  session.turnAbort.signal.addEventListener("abort", onAbort, { once: true });
  signal?.addEventListener("abort", onAbort, { once: true });
  const diff = toolCall.content?.find((c) => c.type === "diff");
  const prompt: PermissionPrompt = {
    sessionId: params.sessionId,
    agentId: ctx.agentId,
    request: { ...params, options: offered },
    signal: abort.signal,
    ...(diff && diff.type === "diff"
      ? { proposed: { path: diff.path, oldText: diff.oldText ?? null, newText: diff.newText } }
      : {}),
    ...(v.outside.length ? { outside: v.outside } : {}),
  };
  ctx.waitingForPermission(true);
  try {
    const answer = await Promise.race([
      ctx.asker.ask(prompt),
      new Promise<null>((resolve) => abort.signal.addEventListener("abort", () => resolve(null), { once: true })),
    ]);
    if (abort.signal.aborted) return { ...cancelled, outside: v.outside };
    const by = answer === null ? undefined : ctx.asker.answeredBy?.(prompt);
    const user = { decidedBy: "user" as const, reason: asked, ...said, ...(by ? { answeredBy: by } : {}) };
    const label = offered.find((o) => o.optionId === answer)?.name;
    if (answer === ALWAYS_EVERYWHERE_OPTION_ID && always)
      return { option: always, label, remember: "everywhere", ...user };
    if (answer === ALWAYS_WIDER_OPTION_ID && always && wider)
      return { option: always, label, remember: "workspace", pattern: wider, ...user };
    const option = answer === null ? undefined : params.options.find((o) => o.optionId === answer);
    if (!option) return no("user", asked);
    return option.kind === "allow_always" ? { option, remember: "workspace", ...user } : { option, ...user };
  } finally {
    ctx.waitingForPermission(false);
    session.turnAbort.signal.removeEventListener("abort", onAbort);
    signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * Saves the rule the user asked for. An unkeyable request is answered "once" (the agent's allow_once when it
 * offers one, so it does not remember on its side either) and the user is told why; a failed save is reported.
 */
async function remember(
  ctx: EngineContext,
  session: SessionState,
  params: acp.RequestPermissionRequest,
  kind: string,
  key: PermissionKey,
  decided: Decided,
): Promise<Decided> {
  const notice = (title: string, description: string) =>
    ctx.emit(session.sessionId, { type: "notice", severity: "warning", title, description });
  if (!key.ok) {
    notice("Allowed once, not remembered", `"Always allow" cannot be remembered here: ${key.reason}.`);
    const once = pickOption(params.options, "allow") ?? decided.option;
    return { ...decided, option: once, label: undefined, remember: undefined };
  }
  try {
    await ctx.store.remember({
      agentId: ctx.agentId,
      kind,
      key: decided.pattern ?? key.key,
      scope: decided.remember === "everywhere" ? EVERYWHERE : ctx.workspace,
    });
  } catch (err) {
    ctx.logger.warn("could not save a remembered permission", err);
    notice("Allowed, but not remembered", `Saving the rule "${kind} ${key.key}" failed: ${errorMessage(err)}`);
  }
  return decided;
}

function record(ctx: EngineContext, session: SessionState, decision: PermissionDecision, key: string): void {
  ctx.emit(session.sessionId, { type: "permission", decision });
  ctx.store
    .audit({
      at: new Date().toISOString(),
      agentId: ctx.agentId,
      sessionId: session.sessionId,
      toolCallId: decision.toolCallId,
      title: decision.title,
      kind: decision.kind,
      path: key,
      policy: ctx.policy,
      decidedBy: decision.decidedBy,
      optionKind: decision.optionKind,
      optionId: decision.optionId,
      ...(decision.rule ? { rule: decision.rule } : {}),
      reason: decision.reason ?? "",
      ...(decision.outside?.length ? { outside: decision.outside } : {}),
    })
    .catch((err: unknown) => ctx.logger.warn("could not append to the permission audit log", err));
}
