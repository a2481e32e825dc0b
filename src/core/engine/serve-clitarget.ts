/**
 * The CLI's thread targets (requests-clitarget.ts): a THREAD argument's whole id, a folder's workspace, a thread
 * to the trash and back. The engine resolves the id in its own data home: a request names a thread, never a file.
 */
import { AcpThreadsError } from "../errors";
import { gitInfo } from "../store/git-info";
import type { ThreadStore } from "../store/thread-store";
import { isIdOrPrefix, isThreadId } from "../model/thread-id";
import type { Handlers } from "./serve-types";

/** The whole id `given` names (in the trash with `trash`), with the words and codes of the store's lookup. */
function resolveThread(store: ThreadStore, given: string, trash = false): string {
  // no thread file is named otherwise, so none is looked for
  if (!isIdOrPrefix(given))
    throw new AcpThreadsError("not_found", `no thread '${given}'${trash ? " in the trash" : ""}`);
  return store.resolveId(given, { trash });
}

export const cliTargetOps: Handlers<"threads.resolve" | "threads.workspace" | "threads.delete" | "threads.restore"> = {
  "threads.resolve": ({ store }, req) => ({ threadId: resolveThread(store, req.threadId, req.trash === true) }),
  "threads.workspace": (_ctx, req) => ({ workspace: gitInfo(req.cwd).repoRoot ?? req.cwd }),
  "threads.delete": async ({ store }, req) => {
    // a whole id is not looked up first: the window's Delete lists no folder and waits on no file call
    const threadId = isThreadId(req.threadId) ? req.threadId : resolveThread(store, req.threadId);
    const trash = await store.deleteAsync(threadId).catch((err: unknown) => {
      // in the words of the lookup's not found
      if (err instanceof AcpThreadsError && err.code === "not_found")
        throw new AcpThreadsError("not_found", `no thread '${req.threadId}'`);
      throw err;
    });
    return { threadId, trash };
  },
  "threads.restore": ({ store }, req) => {
    const threadId = resolveThread(store, req.threadId, true);
    return { threadId, path: store.restore(threadId) };
  },
};
