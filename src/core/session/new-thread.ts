/**
 * The thread behind a session: a new one is recorded for an agent session that just opened (its start record with
 * the folder's git facts), and every thread, new or reopened, writes through `sinkFor`.
 */
import type { AgentRuntime, SessionInfo } from "../acp/runtime";
import { initialMetadata, type ThreadMetadata } from "../model/metadata";
import { THREAD_FORMAT_VERSION, type MetadataPatch } from "../model/records";
import type { AgentInfoRef } from "../model/usage";
import type { GitInfo } from "../store/git-info";
import type { ThreadHandle } from "../store/thread-store";
import { BestEffortSink } from "../thread/best-effort-sink";
import { LiveThread, modelOf } from "../thread/live-thread";
import type { ThreadSink } from "../thread/live-thread";
import { foldersPatch } from "../thread/folders";
import type { ThreadSessionOptions } from "./types";

/** Where a thread's records go: its handle, or (with `onRecordError`) a sink that reports a store error once. */
export function sinkFor(opts: ThreadSessionOptions, threadId: string, handle: ThreadHandle | undefined): ThreadSink {
  return opts.onRecordError ? new BestEffortSink(threadId, handle, opts.onRecordError) : handle!;
}

/** The agent's name and version from `initialize`, when the runtime knows them. */
export function agentInfoOf(runtime: AgentRuntime): AgentInfoRef | undefined {
  const info = runtime.getCapabilities()?.agentInfo;
  return info?.name ? { name: info.name, ...(info.version ? { version: info.version } : {}) } : undefined;
}

/**
 * What a session that just opened on `runtime` changes in the thread's metadata: its agent session (`withSession`;
 * a new thread's start record has it), its model, and the folders its path guard allows (thread/folders.ts).
 */
export async function openedPatch(
  metadata: ThreadMetadata,
  info: SessionInfo,
  runtime: AgentRuntime,
  withSession = true,
): Promise<MetadataPatch> {
  const model = modelOf(info.configOptions);
  return {
    ...(withSession ? { agentSessionId: info.sessionId } : {}),
    ...(model ? { model } : {}),
    ...(await foldersPatch(metadata, runtime.roots)),
  };
}

/**
 * Records a new thread `threadId` for the agent session `info` (in the folder `repo` describes, gitInfoAsync) and
 * returns its live view; `handle` is undefined when the store failed and `onRecordError` took the error. The
 * caller closes `handle` if it fails later.
 */
export async function recordNewThread(
  opts: ThreadSessionOptions,
  threadId: string,
  info: SessionInfo,
  runtime: AgentRuntime,
  repo: GitInfo,
): Promise<{ live: LiveThread; handle: ThreadHandle | undefined }> {
  const now = new Date();
  const start = {
    threadId,
    agent: opts.agent,
    mode: "acp" as const,
    cwd: opts.cwd,
    ...repo,
    agentSessionId: info.sessionId,
    ...(opts.title ? { title: opts.title } : {}),
    ...(opts.startedFrom ? { startedFrom: opts.startedFrom } : {}),
    ...(opts.origin ? { origin: opts.origin } : {}),
  };
  let handle: ThreadHandle | undefined;
  try {
    handle = await opts.store.createAsync(start, now);
  } catch (err) {
    if (!opts.onRecordError) throw err;
    opts.onRecordError(err);
  }
  try {
    const meta = initialMetadata({ v: THREAD_FORMAT_VERSION, ts: now.toISOString(), kind: "thread_start", ...start });
    const opened = await openedPatch(meta, info, runtime, false); // the folders: when they reach beyond its cwd
    const live = new LiveThread(sinkFor(opts, threadId, handle), meta, opts.live);
    live.patch(opened);
    live.sessionOpened(info.sessionId, "new", agentInfoOf(runtime));
    return { live, handle };
  } catch (err) {
    handle?.close();
    throw err;
  }
}
