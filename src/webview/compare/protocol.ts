/**
 * Messages between the best-of-N compare view's host side (src/vscode/worktrees/compare-view.ts) and its webview
 * (./main.ts). Inbound webview messages are untrusted: the host accepts only what `parseCompareMessage` lets through.
 */
import type { UsageCost } from "../../core/usage/usage-query";
import type { Leader } from "../../core/worktree/candidates";
import { fields, str } from "../shared/guards";

export const COMPARE_VIEW_TYPE = "acpThreads.bestOf";

export type CandidateStatus = "waiting" | "working" | "checking" | "done" | "failed";

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
  durationMs: number | null;
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
};

export const COMPARE_ACTIONS = ["open", "diff", "apply", "keep", "discardOthers"] as const;
export type CompareAction = (typeof COMPARE_ACTIONS)[number];

export type CompareWebviewMessage = { type: "ready" } | { type: CompareAction; threadId: string };

export function parseCompareMessage(raw: unknown): CompareWebviewMessage | undefined {
  const m = fields(raw);
  if (m?.type === "ready") return { type: "ready" };
  if ((COMPARE_ACTIONS as readonly unknown[]).includes(m?.type) && str(m?.threadId, 200))
    return { type: m.type as CompareAction, threadId: m.threadId };
  return undefined;
}
