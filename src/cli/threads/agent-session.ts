/** `threads delete --agent-session`: asks the thread's agent to delete its own session (loaded on demand). */
import { deleteAgentSession } from "../../core/acp/agent-logout";
import { resolveCommand } from "../../core/acp/agent-registry";
import { errorMessage } from "../../core/errors";
import { runtimesDirOf } from "../../core/runtime/runtimes-dir";
import { agentOf } from "../thread-target";
import type { SubContext } from "./common";

export async function deleteAgentSessionOf(ctx: SubContext, id: string) {
  const m = ctx.store.readMetadata(id);
  if (!m.agentSessionId) return { sessionId: null, deleted: false, error: `thread ${id} has no agent session` };
  const spec = agentOf(m, ctx.io.env, ctx.store.home);
  if (!resolveCommand(spec.command, m.cwd, ctx.io.env))
    return {
      sessionId: m.agentSessionId,
      deleted: false,
      error: `${m.agent.name} is not installed here ('${spec.command}' not found)`,
    };
  try {
    const node = { runtimesDir: runtimesDirOf(ctx.store.home) };
    await deleteAgentSession(spec, m.agentSessionId, { cwd: m.cwd, env: ctx.io.env, node });
    return { sessionId: m.agentSessionId, deleted: true };
  } catch (err) {
    return { sessionId: m.agentSessionId, deleted: false, error: errorMessage(err) };
  }
}
