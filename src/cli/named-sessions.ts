/**
 * Named sessions (`acp-threads run --session NAME`, as in acpx): a thread tagged `session:NAME`, scoped to the
 * workspace (repository root, else folder) and, when given, the agent. The newest such thread wins (the engine's
 * `threads.named` request).
 */
import type { Engine } from "../core/engine/requests";
import type { ThreadMetadata } from "../core/model/metadata";

export { namedSessionTag } from "../core/model/named-session";

export async function findNamedSession(
  engine: Engine,
  name: string,
  scope: { workspace: string; agentId?: string },
): Promise<ThreadMetadata | undefined> {
  const found = await engine.call({
    op: "threads.named",
    name,
    workspace: scope.workspace,
    ...(scope.agentId ? { agent: scope.agentId } : {}),
  });
  return found ?? undefined;
}
