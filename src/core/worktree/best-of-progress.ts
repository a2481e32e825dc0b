/**
 * What a Best of N (best-of.ts) reports as it goes, and a candidate of one picked up again from its record
 * (best-of-record.ts): the types the algorithm and the record share.
 */
import type { WorktreeRef } from "../model/records";
import type { CandidateRun, CandidateSpec, CandidateSummary } from "./candidates";
import type { CheckResult } from "./check";
import type { CreatedWorktree } from "./create";

export type BestOfProgress =
  | { type: "worktree"; spec: CandidateSpec; worktree: CreatedWorktree }
  | { type: "started"; spec: CandidateSpec }
  | { type: "agent_done"; spec: CandidateSpec; run: CandidateRun; durationMs: number }
  | { type: "check_started"; spec: CandidateSpec; command: string }
  | { type: "check_done"; spec: CandidateSpec; check: CheckResult }
  | { type: "finished"; summary: CandidateSummary };

/** A candidate of a Best of N picked up again (a reloaded window): what its record says. */
export interface ResumedCandidate {
  spec: CandidateSpec;
  threadId: string | null;
  worktree: { ref: WorktreeRef; cwd: string } | null;
  /** When its worktree was made (ms since the epoch). */
  startedAt?: number;
  /** How its agent ended, when that is known. */
  agent?: { run: CandidateRun; durationMs: number };
  /** Its check's result, when its check ran to its end. */
  check?: CheckResult;
}
