/**
 * The permission policy in front of every client-side effect (`fs/read_text_file`, `fs/write_text_file`,
 * `terminal/create`), not only in front of `session/request_permission`:
 * - deny-all refuses writes and terminals (reads too) with a clear JSON-RPC error;
 * - an effect covered by an approval earlier in the turn (the agent asked first — gemini, opencode,
 *   claude-code-acp) goes through without a second question: exactly that effect (the same paths for an edit or
 *   a read, the same command line with the same env for a terminal);
 * - an effect the policy allows and no rule denies or asks for goes through silently (approve-all; reads under
 *   approve-reads), as before;
 * - anything else is asked for as if the agent had asked (same broker, same rules, same audit), which is a
 *   denial when nobody can be asked (CLI, no TTY).
 * A terminal's environment is part of what is approved: it is shown and matched with its command line.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { AcpThreadsError } from "../errors";
import { handleRequestPermission, sessionVerdict } from "./permission-handler";
import { argvLine, withoutEnvValues } from "./permission-key";
import { canonicalCommand } from "./permission-rules";
import type { EngineContext, SessionState } from "./session-state";

const OPTIONS: acp.PermissionOption[] = [
  { optionId: "allow", name: "Allow", kind: "allow_once" },
  { optionId: "allow-always", name: "Always allow", kind: "allow_always" },
  { optionId: "reject", name: "Reject", kind: "reject_once" },
];

function refuse(what: string, why: string, details?: Record<string, unknown>): never {
  throw new AcpThreadsError("permission_denied", `${what} refused: ${why}`, details);
}

type TerminalParams = Pick<acp.CreateTerminalRequest, "command" | "args" | "env">;

/**
 * Variables that cannot change which program runs or what it loads, when their value is a plain word: markers
 * and display settings agents set on every terminal (claude-code-acp sets `CLAUDECODE=1` on each one, which made
 * every command it had been allowed to run asked a second time). `PATH`, `LD_*`, `NODE_OPTIONS`, `PAGER`, … are not.
 */
const INERT_ENV: ReadonlySet<string> = new Set([
  "CLAUDECODE",
  "TERM",
  "COLORTERM",
  "NO_COLOR",
  "FORCE_COLOR",
  "CLICOLOR",
  "CI",
  "COLUMNS",
  "LINES",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "LC_MESSAGES",
]);
const inert = (v: { name: string; value: string }) => INERT_ENV.has(v.name) && /^[A-Za-z0-9._-]{0,64}$/.test(v.value);

/**
 * The command line a `terminal/create` runs (no args: `command` is a shell line), with the env it sets first
 * (`NODE_OPTIONS=--require=/tmp/x.js npm test`): the env is applied to the process, so it is part of the line —
 * but for inert variables with plain values (`CLAUDECODE=1`, `TERM=xterm-256color`), which change nothing that runs.
 */
export function terminalCommandLine(params: TerminalParams): string {
  const line = params.args?.length ? argvLine([params.command, ...params.args]) : params.command;
  const env = (params.env ?? []).filter((v) => !inert(v)).map((v) => argvLine([`${v.name}=${v.value}`]));
  return env.length ? `${env.join(" ")} ${line}` : line;
}

/** Throws unless the policy (or the user) lets this terminal start. */
export async function gateTerminal(
  ctx: EngineContext,
  session: SessionState,
  params: TerminalParams,
  cwd: string,
): Promise<void> {
  if (ctx.gateEffects === false) return;
  const line = terminalCommandLine(params);
  const what = `terminal/create "${clip(line)}"`;
  if (ctx.policy === "deny-all") refuse(what, "the permission policy is deny-all", { command: line });
  if (session.approvedCommands.has(canonicalCommand(line))) return;
  const toolCall: acp.ToolCallUpdate = {
    toolCallId: `terminal:${withoutEnvValues(line)}`, // kept in the thread: the env's names only
    title: line,
    kind: "execute",
    rawInput: { command: line, cwd },
  };
  if (await policyLets(ctx, session, toolCall)) return;
  const ok = await ask(ctx, session, toolCall);
  if (!ok) refuse(what, `the command was not allowed (policy ${ctx.policy}, not approved)`, { command: line });
}

/** Throws unless the policy (or the user) lets the agent write `path` (the agent's path and the checked one). */
export async function gateWrite(
  ctx: EngineContext,
  session: SessionState,
  paths: { asked: string; checked: string },
  oldText: string | null,
  newText: string,
): Promise<void> {
  if (ctx.gateEffects === false) return;
  const what = `writing ${paths.asked}`;
  if (ctx.policy === "deny-all") refuse(what, "the permission policy is deny-all", { path: paths.asked });
  if (session.approvedEdits.has(paths.asked) || session.approvedEdits.has(paths.checked)) return;
  const ok = await ask(ctx, session, {
    toolCallId: `fs-write:${paths.asked}`,
    title: `Write ${paths.asked}`,
    kind: "edit",
    locations: [{ path: paths.asked }],
    content: [{ type: "diff", path: paths.asked, oldText, newText }],
  });
  if (!ok) refuse(what, `the write was not allowed (policy ${ctx.policy}, not approved)`, { path: paths.asked });
}

/** Throws unless the policy (or the user) lets the agent read `path`. */
export async function gateRead(
  ctx: EngineContext,
  session: SessionState,
  paths: { asked: string; checked: string },
): Promise<void> {
  if (ctx.gateEffects === false) return;
  const what = `reading ${paths.asked}`;
  if (ctx.policy === "deny-all") refuse(what, "the permission policy is deny-all", { path: paths.asked });
  const approved = [session.approvedReads, session.approvedEdits];
  if (approved.some((s) => s.has(paths.asked) || s.has(paths.checked))) return;
  const toolCall: acp.ToolCallUpdate = {
    toolCallId: `fs-read:${paths.asked}`,
    title: `Read ${paths.asked}`,
    kind: "read",
    locations: [{ path: paths.asked }],
  };
  if (await policyLets(ctx, session, toolCall)) return; // approve-all, approve-reads: reads pass unless a rule says
  const ok = await ask(ctx, session, toolCall);
  if (!ok) refuse(what, `the read was not allowed (policy ${ctx.policy}, not approved)`, { path: paths.asked });
}

/** The policy alone lets this effect through (no rule denies or asks, nothing outside the roots): no question. */
async function policyLets(ctx: EngineContext, session: SessionState, toolCall: acp.ToolCallUpdate): Promise<boolean> {
  const v = await sessionVerdict(ctx, session, toolCall.kind ?? "other", toolCall);
  return v.verdict === "allow" && v.decidedBy === "policy";
}

async function ask(ctx: EngineContext, session: SessionState, toolCall: acp.ToolCallUpdate): Promise<boolean> {
  const response = await handleRequestPermission(ctx, {
    sessionId: session.sessionId,
    toolCall,
    options: OPTIONS,
  });
  if (response.outcome.outcome !== "selected") return false;
  const id = response.outcome.optionId;
  return OPTIONS.some((o) => o.optionId === id && o.kind.startsWith("allow"));
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
