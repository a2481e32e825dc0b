/** `threads rename ID TITLE...`, `threads delete ID` (to the trash), `threads restore ID` (from the trash). */
import { localEngine } from "../../core/engine/local";
import { AcpThreadsError } from "../../core/errors";
import { renameInHost } from "../host-client";
import { EXIT } from "../io";
import { shortId, writeJson, type SubContext } from "./common";

export async function rename(ctx: SubContext): Promise<number> {
  const engine = localEngine({ store: ctx.store });
  const [given, title] = [ctx.args[0]!, ctx.args.slice(1).join(" ")];
  let id: string;
  try {
    id = (await engine.call({ op: "threads.rename", threadId: given, title })).threadId;
  } catch (err) {
    // not a thread (a bad, ambiguous or unknown id): the engine's error, as the store's was
    if (err instanceof AcpThreadsError && (err.code === "usage" || err.code === "not_found")) throw err;
    // the thread host runs it (its run holds the file): the host writes it; anything else, the store's error
    id = (await engine.call({ op: "threads.meta", threadId: given })).threadId;
    if (!(await renameInHost(ctx.io, id, title))) throw err;
  }
  if (ctx.json) writeJson(ctx.io, { id, title: (await engine.call({ op: "threads.meta", threadId: id })).title });
  else ctx.io.stdout.write(`renamed ${shortId(id)}: ${title.trim()}\n`);
  return EXIT.ok;
}

export async function remove(ctx: SubContext): Promise<number> {
  const engine = localEngine({ store: ctx.store });
  const { threadId: id } = await engine.call({ op: "threads.resolve", threadId: ctx.args[0]! });
  // the agent's session first (its id is in the thread); the local delete happens whatever the agent says
  // loaded only here: the agent's runtime (the ACP SDK) costs every other `threads` command its start-up
  const agentSession = ctx.flags["agent-session"]
    ? await (await import("./agent-session")).deleteAgentSessionOf(ctx, id)
    : undefined;
  const { trash: trashed } = await engine.call({ op: "threads.delete", threadId: id });
  if (ctx.json) writeJson(ctx.io, { id, trash: trashed, ...(agentSession ? { agentSession } : {}) });
  else {
    ctx.io.stdout.write(`moved ${shortId(id)} to the trash (undo: acp-threads threads restore ${id})\n`);
    if (agentSession?.deleted) ctx.io.stdout.write(`deleted the agent's session ${agentSession.sessionId}\n`);
  }
  if (agentSession?.error) {
    ctx.io.stderr.write(`acp-threads threads delete: the agent's session was not deleted: ${agentSession.error}\n`);
    return EXIT.error;
  }
  return EXIT.ok;
}

export async function restore(ctx: SubContext): Promise<number> {
  const engine = localEngine({ store: ctx.store });
  const { threadId: id, path } = await engine.call({ op: "threads.restore", threadId: ctx.args[0]! });
  if (ctx.json) writeJson(ctx.io, { id, path });
  else ctx.io.stdout.write(`restored ${shortId(id)}\n`);
  return EXIT.ok;
}
