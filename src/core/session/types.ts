/** The options and result types of `ThreadSession` (../session.ts). */
import type { AgentRuntime } from "../acp/runtime";
import type { EditLedger } from "../ledger/edit-ledger";
import type { Logger } from "../log";
import type { ContextRef } from "../model/context";
import type { AgentRef, ThreadStartRecord } from "../model/records";
import type { TurnUsage } from "../model/usage";
import type { ThreadStore } from "../store/thread-store";
import type { LiveThreadOptions } from "../thread/live-thread";

export interface ThreadSessionOptions<R extends AgentRuntime = AgentRuntime> {
  store: ThreadStore;
  /** Makes a runtime for this agent; called again to recover after the agent crashed. */
  createRuntime: () => R;
  agent: AgentRef;
  cwd: string;
  title?: string;
  /** Id for a new thread (a host that names the thread before it starts); default: a fresh time-ordered id. */
  threadId?: string;
  logger?: Logger;
  live?: LiveThreadOptions;
  /** Records what each turn changes in the workspace (review, restore, provenance). */
  ledger?: EditLedger;
  /** Where a new thread came from (a handoff names the thread it continues). */
  origin?: ThreadStartRecord["origin"];
  /** Who starts a new thread (#36: the editor, the CLI, automation). */
  startedFrom?: ThreadStartRecord["startedFrom"];
  /** Record the thread's protocol traffic under `<home>/traffic/` for bug bundles (default true). */
  recordTraffic?: boolean;
  /**
   * Record on a best-effort basis: a thread store error (creating the thread, any later write) never fails
   * the session; it is reported here once and the session goes on unrecorded (`recorded` turns false).
   * Without it a store error fails `start` or the turn like any other error.
   */
  onRecordError?: (err: unknown) => void;
}

export interface PromptOptions {
  signal?: AbortSignal;
  /** The user message as the thread records it; default: derived from the prompt (see promptText). */
  recordText?: string;
  /** The prompt's context chips, recorded with the user message. */
  recordContext?: ContextRef[];
}

/** The agent process behind a thread died (mid-turn or between turns). */
export interface AgentExit {
  message: string;
  stderrTail: string[];
}

export type ThreadSessionStatus = "starting" | "idle" | "working" | "closed" | "failed";
/** How the agent session behind the thread was obtained; `seeded` = a new session given our history. */
export type SessionOrigin = "new" | "load" | "resume" | "seeded";

export interface TurnResult {
  stopReason: string;
  error?: string;
  /** Token usage the agent reported for the turn. */
  usage?: TurnUsage;
}
