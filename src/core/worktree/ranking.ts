/**
 * Best of N's candidates as plain data, and their ranking (#25), pure: a candidate (its spec, how its run ended,
 * its summary), the candidates `--agent A --agent B --runs N` names, a check's default time, its result and
 * whether it passed, candidates best first, what the first is ("best" or "fastest"), and a candidate as the CLI's
 * JSON prints it. The CLI's comparison and the compare view say it the same way from these
 * (core/worktree/candidates.ts makes the summaries).
 */
import type { WorktreeRef } from "../model/records";
import type { TurnUsage } from "../model/usage";
import type { WorktreeFile } from "../model/worktree";
import type { UsageCost } from "../usage/usage-query";

export interface CheckResult {
  command: string;
  /** The command's exit code; null when it was ended by a signal or could not start. */
  exitCode: number | null;
  /** The signal that ended it (a timeout or an abort sends SIGTERM, then SIGKILL). */
  signal?: string;
  /** Ended because it ran past its time. */
  timedOut?: boolean;
  /** Ended because the caller aborted it. */
  aborted?: boolean;
  durationMs: number;
  /** The last bytes of its output (`tailBytes`, default 16 KB), redacted. */
  outputTail: string;
}

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

/** A candidate of a Best of N once it ended (core/worktree/candidates.ts `summarize` makes it). */
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

/** How long a check may run unless the user says (`--check-timeout`): ten minutes. */
export const DEFAULT_CHECK_TIMEOUT_MS = 10 * 60_000;

/** Whether a check passed: it exited 0 by itself. */
export const checkPassed = (c: CheckResult | undefined): boolean => c?.exitCode === 0;

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
