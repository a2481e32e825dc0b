/**
 * Serves `fs/read_text_file` and `fs/write_text_file` to the agent through the `WorkspaceFiles` port,
 * after the path guard. Reads of a missing file answer "" (gemini-cli breaks on any error there).
 */
import type * as acp from "@agentclientprotocol/sdk";
import { AcpThreadsError } from "../errors";
import { checkWritePermission } from "./permission-handler";
import type { EngineContext } from "./session-state";

/** Lines `line` (1-based) .. `line + limit - 1` of `text`. */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if (!line && !limit) return text;
  const lines = text.split("\n");
  const start = Math.max(1, line ?? 1) - 1;
  const end = limit != null && limit >= 0 ? start + limit : undefined;
  return lines.slice(start, end).join("\n");
}

export async function handleReadTextFile(
  ctx: EngineContext,
  params: acp.ReadTextFileRequest,
): Promise<acp.ReadTextFileResponse> {
  if (ctx.policy === "deny-all") {
    throw new AcpThreadsError("permission_denied", `reading ${params.path} refused: permission policy is deny-all`);
  }
  const session = ctx.session(params.sessionId);
  const path = await ctx.guard.check(params.path);
  const text = (await ctx.files.readText(path)) ?? "";
  session.lastRead.set(path, text);
  return { content: sliceLines(text, params.line, params.limit) };
}

export async function handleWriteTextFile(
  ctx: EngineContext,
  params: acp.WriteTextFileRequest,
): Promise<acp.WriteTextFileResponse> {
  const session = ctx.session(params.sessionId);
  const path = await ctx.guard.check(params.path);
  const approved = session.approvedEdits.has(params.path) || session.approvedEdits.has(path);
  const oldText = (await ctx.files.readText(path)) ?? null;
  if (!approved) {
    if (!(await checkWritePermission(ctx, session, params.path, oldText, params.content))) {
      throw new AcpThreadsError("permission_denied", `writing ${params.path} was not allowed (policy ${ctx.policy})`, {
        path: params.path,
      });
    }
  }
  const lastRead = session.lastRead.get(path);
  await ctx.files.writeText(path, params.content, lastRead);
  session.lastRead.set(path, params.content);
  ctx.fileWritten?.({ sessionId: params.sessionId, path, before: oldText, after: params.content, lastRead });
  return {};
}
