/** The thread a `worktrees` subcommand names, its worktree, and the guard against touching a thread in use. */
import type { Engine } from "../../core/engine/requests";
import { AcpThreadsError } from "../../core/errors";
import type { WorktreeRef } from "../../core/model/records";

export interface WorktreeThread {
  threadId: string;
  worktree: WorktreeRef;
}

export async function worktreeThread(engine: Engine, idOrPrefix: string, verb: string): Promise<WorktreeThread> {
  const { threadId, worktree, heldBy } = await engine.call({ op: "worktree.thread", thread: idOrPrefix });
  if (heldBy !== null)
    throw new AcpThreadsError(
      "usage",
      `thread ${threadId} is open in process ${heldBy} (an editor or a run); ${verb} its worktree once its session is closed`,
    );
  return { threadId, worktree };
}
