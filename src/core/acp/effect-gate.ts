/**
 * The permission policy in front of every client-side effect (`fs/read_text_file`, `fs/write_text_file`,
 * `terminal/create`), not only in front of `session/request_permission`:
 * - deny-all refuses writes and terminals (reads too) with a clear JSON-RPC error;
 * - an effect covered by an approval earlier in the turn (the agent asked first — gemini, opencode,
 *   claude-code-acp) or by a remembered rule goes through without a second question;
 * - anything else is asked for as if the agent had asked (same broker, same audit), which the policy may answer
 *   itself (approve-all; reads under approve-reads) and which is a denial when nobody can be asked (CLI, no TTY).
 */
import type * as acp from "@agentclientprotocol/sdk";
import { AcpThreadsError } from "../errors";
import { handleRequestPermission } from "./permission-handler";
import { argvLine, commandKey } from "./permission-key";
import type { EngineContext, SessionState } from "./session-state";

const OPTIONS: acp.PermissionOption[] = [
  { optionId: "allow", name: "Allow", kind: "allow_once" },
  { optionId: "allow-always", name: "Always allow", kind: "allow_always" },
  { optionId: "reject", name: "Reject", kind: "reject_once" },
];

function refuse(what: string, why: string, details?: Record<string, unknown>): never {
  throw new AcpThreadsError("permission_denied", `${what} refused: ${why}`, details);
}

/** The command line a `terminal/create` runs (no args: `command` is a shell line). */
export function terminalCommandLine(params: Pick<acp.CreateTerminalRequest, "command" | "args">): string {
  return params.args?.length ? argvLine([params.command, ...params.args]) : params.command;
}

/** Throws unless the policy (or the user) lets this terminal start. */
export async function gateTerminal(
  ctx: EngineContext,
  session: SessionState,
  params: Pick<acp.CreateTerminalRequest, "command" | "args">,
  cwd: string,
): Promise<void> {
  if (ctx.gateEffects === false) return;
  const line = terminalCommandLine(params);
  const what = `terminal/create "${clip(line)}"`;
  if (ctx.policy === "deny-all") refuse(what, "the permission policy is deny-all", { command: line });
  if (ctx.policy === "approve-all" || covered(session, line)) return;
  const ok = await ask(ctx, session, {
    toolCallId: `terminal:${line}`,
    title: line,
    kind: "execute",
    rawInput: { command: line, cwd },
  });
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
  if (ctx.policy !== "ask") return; // approve-all, approve-reads: reads pass
  const approved = [session.approvedReads, session.approvedEdits];
  if (approved.some((s) => s.has(paths.asked) || s.has(paths.checked))) return;
  const ok = await ask(ctx, session, {
    toolCallId: `fs-read:${paths.asked}`,
    title: `Read ${paths.asked}`,
    kind: "read",
    locations: [{ path: paths.asked }],
  });
  if (!ok) refuse(what, `the read was not allowed (policy ${ctx.policy}, not approved)`, { path: paths.asked });
}

/** An `execute` approval earlier in the turn covers the same line, or the same program and subcommand. */
function covered(session: SessionState, line: string): boolean {
  if (session.approvedCommands.has(line.trim())) return true;
  const key = commandKey(line);
  return key.ok && session.approvedCommands.has(`key:${key.key}`);
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
