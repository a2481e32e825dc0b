/**
 * A run of prompts on a thread's session (core/session/run-loop.ts: the CLI's `run`, the thread host's runs, a
 * handoff, each Best of N candidate): a prompt sent while it goes on, and how it ended. Plain data: the front end
 * maps the outcome to what it shows (the CLI: its summary and exit codes).
 */
import type { ErrorInfo } from "../errors";
import type { PromptPart } from "./context";
import type { PermissionDecision } from "./events";
import type { WorktreeRef } from "./records";
import type { SupervisorState } from "./watchdog";

/** A prompt a client sent while the run goes on: its text, and as composed when it carries context. */
export interface NextPrompt {
  text: string;
  parts?: PromptPart[];
}

/**
 * How a run ended: its turns ran (`ok`), an error ended it (the agent's, the watchdog's, or opening it), the agent
 * gave up on a prompt after a permission the policy denied, its time ran out, or its caller stopped it.
 */
export type RunEnd = "ok" | "error" | "permission_denied" | "timeout" | "interrupted";

/** A run's end as its exit code: `run`'s, and what a thread host tells its clients in `ended` (the CLI's, the window's). */
export const RUN_EXIT = {
  ok: 0,
  error: 1,
  permission_denied: 5,
  timeout: 3,
  interrupted: 130,
} as const satisfies Record<RunEnd, number>;

export interface RunOutcome {
  end: RunEnd;
  /** What went wrong, when the run knows (an error turn, a watchdog alert, a failed open). */
  error?: string;
  /** The error that ended it as data, when it was the engine's (no Node fits the agent: which one to install). */
  errorInfo?: ErrorInfo;
  /** The last turn's stop reason (null before any turn ended). */
  stopReason: string | null;
  /** The agent's session id (null when none opened). */
  sessionId: string | null;
  turns: number;
  /** Distinct tool calls of the run. */
  toolCalls: number;
  permissions: PermissionDecision[];
  /** The agent's id (empty when the target was not found), its name and version from `initialize`. */
  agent: { id: string; name: string | null; version: string | null };
  /** The thread the run was recorded as (null when recording failed, or nothing opened). */
  threadId: string | null;
  /** The worktree the new thread works in. */
  worktree?: WorktreeRef;
  /** How the session was opened: `new`, or for a stored thread load, resume, seeded. */
  origin?: string;
}

/** What the run tells the person beside the thread's events (the CLI: its stderr lines). */
export type RunNote =
  /** The agent's own permission mode and the policy (policy-mode.ts's note). */
  | { type: "policy_mode"; text: string }
  /** The watchdog's state changed. */
  | { type: "watchdog"; state: SupervisorState }
  /** A later prompt of a run kept open could not be sent (the caller's to fix); the run goes on. */
  | { type: "prompt_not_sent"; error: string }
  /** The thread could not be written; the run answers anyway (`bestEffortRecording`). */
  | { type: "thread_not_recorded"; error: string };
