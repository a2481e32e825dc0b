/**
 * How a live session (live-session.ts) opens its thread: through the engine's one `openThread`
 * (core/session/open-thread.ts), a new thread (in the worktree made for it) or a stored one resumed, with the
 * sandbox prepared first, the watchdog attached and the steering inbox served, so `acp-threads run --thread ID
 * --steer TEXT` reaches a thread this window holds.
 */
import type { AgentRuntime } from "../core/acp/runtime";
import type { EditLedger } from "../core/ledger/edit-ledger";
import type { Logger } from "../core/log";
import { agentRefOf, type AgentSpec } from "../core/model/agent";
import type { ThreadStartRecord, WorktreeRef } from "../core/model/records";
import { openThread, type OpenedThread, type OpenProgressListener } from "../core/session/open-thread";
import type { ThreadStore } from "../core/store/thread-store";
import type { WatchdogSettings } from "../core/model/watchdog";

/** What opening the thread takes of a live session's init. */
export interface LiveOpenInit {
  store: ThreadStore;
  /** Records what each turn changes (review, restore, provenance). */
  ledger?: EditLedger;
  logger: Logger;
  /** Reopen this stored thread (Resume) instead of starting a new one; it is then the session's id. */
  resumeThreadId?: string;
  /** A new thread's origin (a handoff names the thread it continues). */
  origin?: ThreadStartRecord["origin"];
  /** Who starts a new thread (#36): the editor, or automation for a Best of N candidate (default "editor"). */
  startedFrom?: ThreadStartRecord["startedFrom"];
  /** Record the thread's protocol traffic for bug bundles (acpThreads.recordTraffic). */
  recordTraffic?: boolean;
  /** The git worktree the thread works in (#25). */
  worktree?: WorktreeRef;
  /** The worktree was made for this session: removed again when the session never opens. */
  worktreeMade?: boolean;
  /** The watchdog's settings, read when the thread opens (none: unwatched). */
  watchdog?: () => WatchdogSettings;
  /** What opening did with the worktree (a worktree removed because the session never opened). */
  onProgress?: OpenProgressListener;
}

/** What the live session itself gives: its identity, runtime factory, sandbox step and prompt path. */
export interface LiveOpenSession {
  agent: AgentSpec;
  cwd: string;
  title: string;
  threadId: string;
  createRuntime: () => AgentRuntime;
  prepare: () => Promise<void>;
  prompt: (text: string) => Promise<unknown>;
}

export function openLiveThread(init: LiveOpenInit, live: LiveOpenSession): Promise<OpenedThread | undefined> {
  const { store, ledger, logger, recordTraffic, resumeThreadId, worktree } = init;
  const session = { store, ledger, logger, recordTraffic, createRuntime: live.createRuntime };
  const watchdog = init.watchdog?.();
  return openThread({
    ...(resumeThreadId
      ? { resume: resumeThreadId, session }
      : {
          session: {
            ...session,
            agent: agentRefOf(live.agent),
            cwd: live.cwd,
            title: live.title,
            threadId: live.threadId,
            startedFrom: init.startedFrom ?? "editor",
            ...(init.origin ? { origin: init.origin } : {}),
          },
          ...(worktree ? { worktree: { ref: worktree, made: init.worktreeMade === true } } : {}),
        }),
    prepare: live.prepare,
    ...(watchdog ? { watchdog: { ...watchdog, prompt: live.prompt } } : {}),
    ...(init.onProgress ? { onProgress: init.onProgress } : {}),
  });
}
