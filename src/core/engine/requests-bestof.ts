/**
 * The engine requests of the Best of N records (#25, #35 item 7): the records a `run --detach` best of N or a
 * window's hosted one keeps in the data home (core/worktree/best-of-record.ts), read. A request names a record by
 * its id or a unique start of one (hex digits; anything else, a path, is a usage error); it never names a file.
 * Nothing here runs a check or a command: a record is finished (its checks run) by the process that follows it.
 */
import type { BestOfRecord } from "../worktree/best-of-record";
import type { CandidateSummary } from "../worktree/ranking";

export type BestOfRequest =
  /** Every Best of N record of the data home, oldest first. */
  | { op: "bestof.list" }
  /**
   * The record `id` names (its id or a unique start of one; none: the newest). A finished one (its thread host
   * ranked it) comes with its candidates' summaries, made from the record and the candidates' threads: nothing runs.
   */
  | { op: "bestof.read"; id?: string };

export interface BestOfReplies {
  "bestof.list": BestOfRecord[];
  /** `summaries`: only for a finished record (`record.finishedAt`), in the record's order (not ranked). */
  "bestof.read": { record: BestOfRecord; summaries?: CandidateSummary[] };
}
