/**
 * Serves `fs/read_text_file` and `fs/write_text_file` to the agent through the `WorkspaceFiles` port, after the
 * path guard and the policy (effect-gate.ts). Reads of a missing file answer "" (gemini-cli breaks on any error
 * there); reads honour `line`/`limit` without loading the whole file, and no answer is over `MAX_READ_BYTES`.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { gateRead, gateWrite } from "./effect-gate";
import { MAX_READ_BYTES, sliceLineRange } from "./line-reader";
import type { EngineContext } from "./session-state";

/** Lines `line` (1-based) .. `line + limit - 1` of `text`. */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  return sliceLineRange("", text, { line, limit, maxBytes: Infinity });
}

export async function handleReadTextFile(
  ctx: EngineContext,
  params: acp.ReadTextFileRequest,
): Promise<acp.ReadTextFileResponse> {
  const session = ctx.session(params.sessionId);
  const path = await ctx.guard.check(params.path);
  await gateRead(ctx, session, { asked: params.path, checked: path });
  const range = { line: params.line, limit: params.limit, maxBytes: MAX_READ_BYTES };
  const whole = !params.line && params.limit == null;
  const content = ctx.files.readLines
    ? await ctx.files.readLines(path, range)
    : await ctx.files.readText(path).then((text) => text && sliceLineRange(params.path, text, range));
  // What the agent last saw of the whole file (an editor merges its next write against it); a partial read
  // makes an older whole read stale.
  if (whole && content !== undefined) session.lastRead.set(path, content);
  else session.lastRead.delete(path);
  return { content: content ?? "" };
}

export async function handleWriteTextFile(
  ctx: EngineContext,
  params: acp.WriteTextFileRequest,
): Promise<acp.WriteTextFileResponse> {
  const session = ctx.session(params.sessionId);
  const path = await ctx.guard.check(params.path);
  const oldText = (await ctx.files.readText(path)) ?? null;
  await gateWrite(ctx, session, { asked: params.path, checked: path }, oldText, params.content);
  const lastRead = session.lastRead.get(path);
  await ctx.files.writeText(path, params.content, lastRead);
  session.lastRead.set(path, params.content);
  ctx.fileWritten?.({ sessionId: params.sessionId, path, before: oldText, after: params.content, lastRead });
  return {};
}
