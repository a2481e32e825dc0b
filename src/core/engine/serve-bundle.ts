/**
 * Bug bundles (requests-bundle.ts): built from the engine's data home (the thread's records, its traffic file) with
 * fs/promises and written atomically, 0600. A thread is named by its id (not looked up) or a unique start of one.
 * A replay reads the bundle with fs/promises and plays it in a new empty workspace (core/bundle/replay.ts).
 */
import { join } from "node:path";
import { buildBugBundle, bundleFileName, readBugBundleAsync, writeBugBundle } from "../bundle/bundle";
import { replayBundle } from "../bundle/replay";
import { AcpThreadsError } from "../errors";
import { VERSION } from "../version";
import { threadIdOf } from "./serve-threads";
import type { Handlers } from "./serve-types";

export const bundleOps: Handlers<"bundle.name" | "bundle.save" | "bundle.replay"> = {
  "bundle.name": async ({ store }, req) => {
    const threadId = threadIdOf(store, req.threadId, false);
    const { metadata } = await store.readExisting(threadId);
    return { name: bundleFileName({ createdAt: new Date().toISOString(), agent: metadata.agent, threadId }) };
  },
  "bundle.save": async ({ store }, req) => {
    if ((req.outFile === undefined) === (req.dir === undefined))
      throw new AcpThreadsError("usage", "engine request bundle.save: give one of 'outFile' and 'dir'");
    const threadId = threadIdOf(store, req.threadId, false);
    const bundle = await buildBugBundle(store, threadId, { acpThreadsVersion: VERSION });
    const path = req.outFile ?? join(req.dir!, bundleFileName({ ...bundle, threadId }));
    await writeBugBundle(bundle, path);
    return { path, messages: bundle.traffic.length, notes: bundle.notes };
  },
  "bundle.replay": async (_ctx, req) =>
    replayBundle(await readBugBundleAsync(req.file), {
      ...(req.stepTimeoutMs !== undefined ? { stepTimeoutMs: req.stepTimeoutMs } : {}),
    }),
};
