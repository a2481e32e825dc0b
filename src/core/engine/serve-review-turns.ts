/**
 * `review.turnChanges` (requests-review.ts): the thread panel's "N files changed" rows, worked out from the thread's
 * ledger. A worktree thread's applies into the workspace get rows too, under the last turn before them.
 */
import type { EditLedger } from "../ledger/edit-ledger";
import { lineCounts } from "../ledger/hunks";
import { isReviewable, restoredTurns } from "../ledger/restored";
import { reviewOpAsync, type ReviewFile } from "../ledger/review";
import { relPath } from "../ledger/summary";
import type { TurnChanges } from "./requests-review";
import { withThreadLedger } from "./serve-review-keep";
import type { Handlers } from "./serve-types";

/** File names a row shows. */
const NAMES = 3;

/** Hunks (or a whole file without hunks) still pending. */
const pendingOf = (files: readonly ReviewFile[]): number =>
  files.reduce(
    (n, f) =>
      n + (f.hunks.length ? f.hunks.filter((h) => h.status === "pending").length : f.status === "pending" ? 1 : 0),
    0,
  );

/** The thread's rows, from `ledger` (the handler's work; the ledger bench calls it directly as its baseline). */
export async function turnChangesOf(ledger: EditLedger, threadId: string, cwd: string): Promise<TurnChanges[]> {
  const view = await ledger.readAsync(threadId);
  const restored = restoredTurns(view);
  let lastTurn = 1;
  const rows = view.ops
    .map((o) => {
      if (o.type === "turn" && o.turn !== undefined) lastTurn = o.turn;
      return { o, under: o.type === "turn" ? o.turn : lastTurn };
    })
    .filter(({ o, under }) => isReviewable(o) && under !== undefined && o.files.length);
  // one operation at a time (its files a few at once): a long thread's versions are not all read at once
  const reviewed: ReviewFile[][] = [];
  for (const { o } of rows) reviewed.push(await reviewOpAsync(ledger, view, o));
  return rows.map(({ o, under }, i) => {
    const files = reviewed[i]!;
    const restoredBy = restored.get(o.op);
    return {
      turn: under!,
      op: o.op,
      ...(o.type === "apply" ? { apply: true as const } : {}),
      files: o.files.length,
      ...lineCounts(files.flatMap((f) => f.hunks)),
      // a restored turn's changes are gone from the workspace: nothing of it is left to review
      pending: restoredBy ? 0 : pendingOf(files),
      names: o.files.slice(0, NAMES).map((f) => relPath(cwd, f.path)),
      ...(restoredBy ? { restoredBy } : {}),
    };
  });
}

export const reviewTurnsOps: Handlers<"review.turnChanges"> = {
  "review.turnChanges": (ctx, req) =>
    withThreadLedger(ctx, req.threadId, (ledger) => turnChangesOf(ledger, req.threadId, req.cwd)),
};
