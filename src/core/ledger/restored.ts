/**
 * Which turns (and worktree applies) a restore took back. Restoring to before operation i puts the workspace
 * where it was before i: every turn and apply from i on is then restored (by that restore), and the ones before
 * i are as they were at i. Undoing a restore is a restore to before it, so what it took back is in effect again.
 * Derived from the ledger's operation order at every read, like the rest of the view.
 */
import type { LedgerView, OpView } from "./ledger-view";

/**
 * The operations whose hunks are reviewed (Keep / Undo): an agent's turn, and a worktree's apply into the
 * workspace (#25 item 2: the apply, or one merged conflict, is reviewed hunk by hunk like a turn). Restores and
 * undos are answers, not changes to review.
 */
export const isReviewable = (o: Pick<OpView, "type">): boolean => o.type === "turn" || o.type === "apply";

/** Turn or apply op id → the id of the restore that took it back, for each one not in effect now. */
export function restoredTurns(view: Pick<LedgerView, "ops">): Map<string, string> {
  const at: Map<string, string>[] = [];
  let now = new Map<string, string>();
  view.ops.forEach((o, k) => {
    at[k] = now;
    if (o.type !== "restore" || !o.summary?.target) return;
    const i = view.ops.findIndex((x) => x.op === o.summary!.target!.op);
    if (i < 0 || i >= k) return;
    now = new Map(at[i]);
    for (const t of view.ops.slice(i, k)) if (isReviewable(t) && t.files.length) now.set(t.op, o.op);
  });
  return now;
}
