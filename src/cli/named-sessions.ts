/**
 * Named sessions (`acp-threads run --session NAME`, as in acpx): a thread tagged `session:NAME`, scoped to the
 * workspace (repository root, else folder) and, when given, the agent. The newest such thread wins.
 */
import { listThreadsIndexed } from "../core/index/threads-index";
import type { ThreadMetadata } from "../core/model/metadata";
import type { ThreadStore } from "../core/store/thread-store";

export const namedSessionTag = (name: string): string => `session:${name}`;

export async function findNamedSession(
  store: ThreadStore,
  name: string,
  scope: { workspace: string; agentId?: string },
): Promise<ThreadMetadata | undefined> {
  const tag = namedSessionTag(name);
  const threads = await listThreadsIndexed(store, {
    workspace: scope.workspace,
    archived: "include", // a named session stays its name's even archived
    ...(scope.agentId ? { agent: scope.agentId } : {}),
  });
  return threads.find((m) => m.mode === "acp" && (m.tags ?? []).includes(tag));
}
