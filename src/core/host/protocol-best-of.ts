/** The thread host's Best of N request (#35), as its protocol (protocol.ts) carries it. */
import type { RecordOwner } from "../worktree/best-of-record";

/**
 * `run --worktrees --detach` hands its Best of N to the host once every candidate is handed over: the host owns the
 * record `bestOf` (in the data home) from then on and finishes it as `worktrees compare` would (core's
 * resumeBestOf): follows each candidate's run to its end, runs the check in each worktree, records every fact and
 * lets the record go, ranked. Refused unless the record's owner is gone or is `from` (the asking client hands it
 * over), its repository and worktrees are the client's folders', and `check` is the record's check command (the one
 * the user typed: the host runs no other). Answered `ok` once the host owns it.
 */
export interface BestOfRequest {
  t: "best_of";
  id: number;
  bestOf: string;
  from: RecordOwner;
  check?: string;
  /** The check's time (`--check-timeout`); none: the default. */
  checkTimeoutMs?: number;
}
