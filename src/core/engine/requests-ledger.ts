/**
 * The engine requests of a thread's edit ledger once its edits are recorded (#35 item 7): what each turn changed
 * (`acp-threads changes`, with its patch), the handoff brief built from it, and a restore of the files to before a
 * turn or operation (`acp-threads restore`, `rewind`'s files). A restore names a thread and a turn (or operation) and
 * optionally files the ledger recorded; the engine plans what to write from its own records (the blob store), never
 * from contents or paths a caller sends, and refuses to write a file outside the thread's folders (its cwd, its
 * repository, its worktree and the checkout a worktree was applied into; a preview shows it).
 */
import type { ErrorCode } from "../errors";
import type { HandoffBrief } from "../handoff/brief";
import type { OpSummary } from "../ledger/summary";
import type { RestorePlan } from "../ledger/restore";

export type LedgerRequest =
  /**
   * The thread's operations (turns, applies, restores, undos) with their files, relative to its folder; `turn`: only
   * that turn's (none when it changed nothing); `patch`: a unified diff of each file before and after too.
   */
  | { op: "ledger.changes"; threadId: string; turn?: number; patch?: boolean }
  /** The brief a handoff sends the next agent ("changed" files from the ledger; core/handoff/brief.ts). */
  | { op: "handoff.brief"; threadId: string }
  /**
   * Puts the files the thread changed back to before turn `turn`, operation `target`, the last restore (`undo`), or
   * the first operation of turn `fromTurn` or later (a rewind: no plan when nothing changed from there). Exactly one
   * of the four. `files`: only these (absolute paths the plan has). The plan is made here; `dryRun`: only the plan.
   * A file changed since the ledger's record of it refuses the restore unless `force`; a thread another process
   * writes (an editor or a run) is not restored here (`heldBy`). `expect`: the `planKey` of the preview this restore
   * applies (the window's, after the person looked at it): a plan that differs now (the files or the ledger changed
   * since, or the key is not its preview's) is refused, nothing written (`refused.details.stale`).
   */
  | {
      op: "ledger.restore";
      threadId: string;
      turn?: number;
      target?: string;
      undo?: boolean;
      fromTurn?: number;
      files?: readonly string[];
      dryRun?: boolean;
      force?: boolean;
      expect?: string;
    };

/** An operation as `changes` lists it; `restoredBy`: the restore that took a turn or apply back. */
export type ChangesOp = OpSummary & { restoredBy?: string };

export interface LedgerReplies {
  /** `warnings`: lines of the ledger that could not be read (skipped). */
  "ledger.changes": { threadId: string; cwd: string; warnings: string[]; ops: ChangesOp[]; patch?: string };
  "handoff.brief": HandoffBrief;
  /**
   * `plan`: null for a rewind with nothing to restore; `rels`: its files' paths relative to the thread's folder (the
   * absolute path outside it), in its order. `heldBy`: the process that writes the thread (nothing
   * written). `result`: the restore recorded (`op`, the files written, its notes). `refused`: why nothing was
   * written (files changed since: `details.conflicts`; a plan other than the one `expect` names: `details.stale`).
   * `planKey`: the plan's digest (opaque; the same plan, the same key), for `expect`. `outside`: a preview's (`dryRun`) files outside the
   * thread's folders, as the restore would refuse them (`path_outside_workspace`, `details.outside`).
   */
  "ledger.restore": {
    plan: RestorePlan | null;
    rels?: string[];
    planKey?: string;
    heldBy?: number;
    result?: { op: string; files: number; notes: string[] };
    refused?: { code: ErrorCode; message: string; details?: Record<string, unknown> };
    outside?: { code: ErrorCode; message: string; details?: Record<string, unknown> };
  };
}
