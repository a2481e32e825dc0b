/**
 * Best of N (#25): the candidate model the CLI and the editor share. One prompt goes to several agents (or N runs
 * of one), each candidate in a worktree of its own; a candidate's summary says what it answered, what it changed
 * (files, `+/-` lines against the base), what its check said, the tokens and cost it reported and how long it
 * took. Candidates are ranked: a passed check first, then the ones that finished (a failed check after those
 * without one), then the failed ones; ties go to the faster. `verdict` says whether the first is "best" for a
 * reason or only the fastest among equals.
 */
import type { ThreadRecord, WorktreeRef } from "../model/records";
import type { TurnUsage } from "../model/usage";
import { LedgerFolder } from "../usage/ledger";
import type { UsageCost } from "../usage/usage-query";
import type { CandidateRun, CandidateSpec, CandidateSummary, CheckResult } from "./ranking";
import type { WorktreeState } from "./state";

export const ANSWER_MAX_CHARS = 4_000;

/** The end of `text` (at most `max` characters), `…` marking the cut. */
export function boundAnswer(text: string, max = ANSWER_MAX_CHARS): string {
  const t = text.trim();
  return t.length <= max ? t : `…${t.slice(t.length - max + 1)}`;
}

/** Two turns' usage added (reported fields only: one absent on both sides stays absent). */
export function addUsage(a: TurnUsage | undefined, b: TurnUsage | undefined): TurnUsage | undefined {
  if (!a || !b) return a ?? b;
  const opt = (k: "thoughtTokens" | "cachedReadTokens" | "cachedWriteTokens") =>
    a[k] === undefined && b[k] === undefined ? {} : { [k]: (a[k] ?? 0) + (b[k] ?? 0) };
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    ...opt("thoughtTokens"),
    ...opt("cachedReadTokens"),
    ...opt("cachedWriteTokens"),
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

/**
 * The last agent message (its parts joined), the usage of every turn and the cost the agent reported (the usage
 * ledger's deltas of its cumulative figures, summed per currency), read from a thread's records.
 */
export function threadOutcome(records: readonly ThreadRecord[]): {
  answer: string;
  usage?: TurnUsage;
  costs: UsageCost[];
} {
  let lastId: string | undefined;
  let answer = "";
  let usage: TurnUsage | undefined;
  const folder = new LedgerFolder();
  const spent = new Map<string, number>();
  for (const r of records) {
    for (const e of folder.add(r))
      if (e.cost !== null && e.currency !== null) spent.set(e.currency, (spent.get(e.currency) ?? 0) + e.cost);
    if (r.kind === "agent_message") {
      if (r.messageId !== lastId) answer = "";
      lastId = r.messageId;
      answer += r.text;
    } else if (r.kind === "turn_end") usage = addUsage(usage, r.usage);
  }
  const costs = [...spent].map(([currency, amount]) => ({ currency, amount: Math.round(amount * 1e9) / 1e9 }));
  return { answer: boundAnswer(answer), ...(usage ? { usage } : {}), costs };
}

/** A candidate's summary from how its session ended and its worktree's state. */
export function summarize(
  spec: CandidateSpec,
  parts: {
    run: CandidateRun;
    worktree: WorktreeRef | null;
    state?: WorktreeState;
    check?: CheckResult;
    durationMs: number;
    records?: readonly ThreadRecord[];
  },
): CandidateSummary {
  const { run, state } = parts;
  const fromThread = parts.records ? threadOutcome(parts.records) : undefined;
  const usage = run.usage ?? fromThread?.usage;
  return {
    label: spec.label,
    agent: spec.name,
    run: spec.run,
    threadId: run.threadId,
    worktree: parts.worktree,
    status: run.ok ? "done" : "failed",
    stopReason: run.stopReason ?? null,
    answer: boundAnswer(run.answer ?? fromThread?.answer ?? ""),
    files: state?.files ?? [],
    added: state?.added ?? 0,
    removed: state?.removed ?? 0,
    ahead: state?.ahead ?? 0,
    ...(parts.check ? { check: parts.check } : {}),
    ...(usage ? { usage } : {}),
    costs: fromThread?.costs ?? [],
    durationMs: Math.round(parts.durationMs),
    ...(run.error ? { error: run.error } : {}),
    notes: run.notes ?? [],
  };
}

// the ranking and its words (pure: the front ends share them)
export {
  candidateJson,
  expandCandidates,
  leaderOf,
  rankCandidates,
  type CandidateRun,
  type CandidateSpec,
  type CandidateSummary,
  type Leader,
} from "./ranking";
