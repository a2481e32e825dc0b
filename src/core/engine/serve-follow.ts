/**
 * `threads.follow` (requests-follow.ts): a thread another process writes, followed read-only through its file and
 * its lock (core/store/thread-follower.ts) until nobody holds it or the caller stops. The thread is resolved in the
 * engine's data home; a whole id is not looked up and its file is only read asynchronously (the window follows on
 * its extension host's thread).
 */
import { stat } from "node:fs/promises";
import { AcpThreadsError } from "../errors";
import { FOLLOW_POLL_MS, followThread } from "../store/thread-follower";
import { writerOf } from "./serve-sessions";
import { threadIdOf } from "./serve-threads";
import type { Handlers } from "./serve-types";

const MIN_POLL_MS = 100;
const MAX_POLL_MS = 10_000;

export const followOps: Handlers<"threads.follow"> = {
  "threads.follow": async ({ store }, req, report, signal) => {
    const path = store.pathFor(threadIdOf(store, req.threadId, false));
    const size = await stat(path).then(
      (s) => s.size,
      () => {
        throw new AcpThreadsError("not_found", `no thread '${req.threadId}'`);
      },
    );
    const pollMs = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, req.pollMs ?? FOLLOW_POLL_MS));
    return followThread(path, {
      fromOffset: req.fromOffset ?? size,
      pollMs,
      ...(signal ? { signal } : {}),
      onRecords: (records, offset) => report({ t: "records", records, offset }),
      onHolder: (h) => report({ t: "holder", holder: writerOf(h) }),
    });
  },
};
