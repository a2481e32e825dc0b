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
import { checkPassed, type CheckResult } from "./check";
import type { WorktreeFile, WorktreeState } from "./state";

export interface CandidateSpec {
  /** The agent as the user named it (a preset id or a command line). */
  agentId: string;
  /** Its short name (a preset's id; a command line's program name): the `agent` of its summary. */
  name: string;
  /** 1-based run number among the candidates of that agent. */
  run: number;
  /** `codex#1`: how the candidate is named in progress lines and tables. */
  label: string;
}

/** What a candidate's session reports when it ends (the CLI and the editor each run sessions their own way). */
export interface CandidateRun {
  /** The thread the candidate was recorded as; null when no session opened (the agent did not start). */
  threadId: string | null;
  /** The agent finished its turn(s) without an error. */
  ok: boolean;
  stopReason?: string | null;
  /** The last agent message (else read from the thread's records). */
  answer?: string;
  /** Token usage summed over its turns (else read from the thread's records). */
  usage?: TurnUsage;
  error?: string;
  /** Things the user should know (permission requests refused by the policy). */
  notes?: string[];
  /** Time the candidate spent waiting for a person (a permission prompt): not counted in its duration. */
  waitedMs?: number;
}

export interface CandidateSummary {
  label: string;
  /** The agent's short name (see CandidateSpec.name). */
  agent: string;
  run: number;
  threadId: string | null;
  worktree: WorktreeRef | null;
  /** "done": the agent finished; "failed": it did not start, crashed, or ended with an error. */
  status: "done" | "failed";
  stopReason: string | null;
  /** The last agent message, bounded (its end kept: conclusions come last). */
  answer: string;
  files: WorktreeFile[];
  added: number;
  removed: number;
  /** Commits the agent made on top of the base. */
  ahead: number;
  check?: CheckResult;
  usage?: TurnUsage;
  /** What the agent reported spending (its `usage_update` costs summed over the thread), per currency; empty when none. */
  costs: UsageCost[];
  /** The agent's wall-clock time, worktree creation to its last turn's end (the check has its own). */
  durationMs: number;
  error?: string;
  notes: string[];
}

export const ANSWER_MAX_CHARS = 4_000;

/**
 * `--agent A --agent B --runs N` → A#1..A#N, B#1..B#N; an agent named twice gets its runs numbered on. `nameOf`
 * gives the label's name (the CLI passes the agent's id, so a command line is labelled by its program's name).
 */
export function expandCandidates(
  agents: readonly string[],
  runs = 1,
  nameOf: (agentId: string) => string = (a) => a,
): CandidateSpec[] {
  const counts = new Map<string, number>();
  const out: CandidateSpec[] = [];
  for (const agentId of agents) {
    const name = nameOf(agentId);
    for (let i = 0; i < runs; i++) {
      const run = (counts.get(name) ?? 0) + 1;
      counts.set(name, run);
      out.push({ agentId, name, run, label: `${name}#${run}` });
    }
  }
  return out;
}

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

/** 0: check passed; 1: finished (no check); 2: finished, check failed; 3: failed. */
function tier(c: CandidateSummary): number {
  if (c.status === "failed") return 3;
  if (!c.check) return 1;
  return checkPassed(c.check) ? 0 : 2;
}

/** Best first: check passed, finished, check failed, failed; then the faster. */
export function rankCandidates(cs: readonly CandidateSummary[]): CandidateSummary[] {
  return [...cs].sort((a, b) => tier(a) - tier(b) || a.durationMs - b.durationMs);
}

/**
 * What the first of a ranking (`rankCandidates`) is, said the same way by the CLI and the compare view: "best"
 * only when the ranking has a reason beyond speed (its check passed and the next one's did not, or it finished
 * and the next one did not); "fastest" when it ties with the next on that and only its time puts it first;
 * nothing when no candidate finished or there is only one.
 */
export interface Leader {
  label: string;
  kind: "best" | "fastest";
  /** Why, in a few words ("its check passed", "the only one that finished", "same result, faster"). */
  why: string;
}

export function leaderOf(ranked: readonly CandidateSummary[]): Leader | undefined {
  const [first, second] = ranked;
  if (!first || first.status !== "done") return undefined;
  const t = tier(first);
  if (!second) return undefined; // nothing to compare it with
  if (tier(second) === t) return { label: first.label, kind: "fastest", why: "same result, faster" };
  if (t === 0) return { label: first.label, kind: "best", why: "its check passed" };
  if (tier(second) === 3)
    return { label: first.label, kind: "best", why: ranked.length === 2 ? "the other failed" : "the others failed" };
  return { label: first.label, kind: "best", why: "its check did not fail" };
}

/**
 * The JSON the CLI prints for a candidate (`run ... --format json`): the fields (`threadId`, `agent`,
 * `worktree` as a path, `files`, `added`, `removed`, `check: {command, exitCode}`, `usage`, `durationMs`) plus
 * the rest of the summary (`files` lists each file with its change and lines).
 */
export function candidateJson(c: CandidateSummary): Record<string, unknown> {
  return {
    label: c.label,
    threadId: c.threadId,
    agent: c.agent,
    run: c.run,
    status: c.status,
    stopReason: c.stopReason,
    worktree: c.worktree?.path ?? null,
    repo: c.worktree?.repo ?? null,
    base: c.worktree?.base ?? null,
    files: c.files,
    added: c.added,
    removed: c.removed,
    ahead: c.ahead,
    check: c.check ?? null,
    usage: c.usage ?? null,
    cost: c.costs.length ? c.costs : null,
    durationMs: c.durationMs,
    answer: c.answer,
    ...(c.error ? { error: c.error } : {}),
    notes: c.notes,
  };
}
