/** The CLI's thread targets (requests-clitarget.ts): a THREAD argument's whole id, a folder's workspace. */
import { AcpThreadsError } from "../errors";
import { gitInfo } from "../store/git-info";
import type { Handlers } from "./serve-types";

/** What a thread id or a prefix of one may hold: hex digits and dashes, nothing a path is made of. */
const ID_CHARS = /^[0-9a-f-]{1,36}$/i;

export const cliTargetOps: Handlers<"threads.resolve" | "threads.workspace"> = {
  "threads.resolve": ({ store }, req) => {
    const trash = req.trash === true;
    // the words of the store's lookup: no thread file is named otherwise, so none is looked for
    if (!ID_CHARS.test(req.threadId))
      throw new AcpThreadsError("not_found", `no thread '${req.threadId}'${trash ? " in the trash" : ""}`);
    return { threadId: store.resolveId(req.threadId, { trash }) };
  },
  "threads.workspace": (_ctx, req) => ({ workspace: gitInfo(req.cwd).repoRoot ?? req.cwd }),
};
