/**
 * Messages between the best-of-N compare view's host side (src/vscode/worktrees/compare-view.ts) and its webview
 * (./main.ts). Inbound webview messages are untrusted: the host accepts only what `parseCompareMessage` lets through.
 */
import type { UsageCost } from "../../core/usage/usage-query";
import type { Leader } from "../../core/worktree/candidates";
import { fields, str } from "../shared/guards";

export const COMPARE_VIEW_TYPE = "acpThreads.bestOf";

/** `waiting`: not started yet; `asking`: it waits for the person to answer a permission request (`asks`). */
export type CandidateStatus = "waiting" | "working" | "asking" | "checking" | "done" | "failed";

/** A permission request a candidate waits on, answerable from its card. */
export interface CandidateAsk {
  requestId: string;
  title: string;
  options: { optionId: string; name: string; kind: string }[];
}

/** One candidate as the view shows it. */
export interface CandidateRow {
  label: string;
  agent: string;
  threadId: string | null;
  status: CandidateStatus;
  answer: string;
  files: { path: string; added: number | null; removed: number | null }[];
  added: number;
  removed: number;
  tokens: number | null;
  /** What the agent reported spending, per currency (empty: it reported no cost). */
  costs: UsageCost[];
  /** The agent's own time so far: time waiting for the person is not counted. */
  durationMs: number | null;
  /** The request it waits on (status `asking`). */
  asks?: CandidateAsk;
  check?: { command: string; exitCode: number | null; timedOut?: boolean; outputTail: string };
  /** What the user did with it. */
  outcome?: "applied" | "kept" | "discarded";
  error?: string;
}

export type CompareHostMessage = {
  type: "state";
  prompt: string;
  check?: string;
  running: boolean;
  rows: CandidateRow[];
  /** The first of the core's ranking once all are done: "best" for a reason, or only the "fastest" of equals. */
  leader?: Leader;
  /** The Best of N's record (a hosted one, #35): saved in the webview's state, so a reload restores the view. */
  recordId?: string;
};

export const COMPARE_ACTIONS = ["open", "diff", "apply", "keep", "discardOthers"] as const;
export type CompareAction = (typeof COMPARE_ACTIONS)[number];

export type CompareWebviewMessage =
  | { type: "ready" }
  | { type: CompareAction; threadId: string }
  | { type: "answer"; threadId: string; requestId: string; optionId: string };

export function parseCompareMessage(raw: unknown): CompareWebviewMessage | undefined {
  const m = fields(raw);
  if (m?.type === "ready") return { type: "ready" };
  if (m?.type === "answer" && str(m.threadId, 200) && str(m.requestId, 200) && str(m.optionId, 500))
    return { type: "answer", threadId: m.threadId, requestId: m.requestId, optionId: m.optionId };
  if ((COMPARE_ACTIONS as readonly unknown[]).includes(m?.type) && str(m?.threadId, 200))
    return { type: m.type as CompareAction, threadId: m.threadId };
  return undefined;
}
