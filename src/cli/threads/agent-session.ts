/** `threads delete --agent-session`: asks the thread's agent to delete its own session (loaded on demand). */
import { resolve } from "node:path";
import { errorMessage } from "../../core/errors";
import { localEngine } from "../../core/engine/local";
import { agentOf } from "../thread-target";
import type { SubContext } from "./common";

export async function deleteAgentSessionOf(ctx: SubContext, id: string) {
  const m = ctx.store.readMetadata(id);
  if (!m.agentSessionId) return { sessionId: null, deleted: false, error: `thread ${id} has no agent session` };
  const engine = localEngine({ store: ctx.store, env: ctx.io.env });
  const spec = await agentOf(engine, m);
  if (!(await engine.call({ op: "agents.which", spec, cwd: resolve(m.cwd) })).program)
    return {
      sessionId: m.agentSessionId,
      deleted: false,
      error: `${m.agent.name} is not installed here ('${spec.command}' not found)`,
    };
  try {
    await engine.call({
      op: "agents.deleteSession",
      spec,
      sessionId: m.agentSessionId,
      cwd: m.cwd,
      managedNodes: true,
    });
    return { sessionId: m.agentSessionId, deleted: true };
  } catch (err) {
    return { sessionId: m.agentSessionId, deleted: false, error: errorMessage(err) };
  }
}
