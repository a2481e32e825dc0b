/**
 * The engine request `worktree.apply` (requests-worktree.ts): `acp-threads worktrees apply`'s plan, its merges and
 * the apply, made here over the worktree the thread's record keeps and the thread's edit ledger (a caller never
 * hands a plan over to be applied). An apply refused for its conflicts or links is answered with the plan and the
 * refusal, so a caller shows the plan before the error, as the command always did.
 */
import { AcpThreadsError } from "../errors";
import { EditLedger } from "../ledger/edit-ledger";
import { applyWorktree, planApply, type ApplyItem } from "../worktree/apply";
import type { FileMerge } from "../worktree/merge-file";
import { planMerges } from "../worktree/merge-plan";
import type { ApplyFile, ApplyOutcome } from "./requests-worktree";
import type { Handlers } from "./serve-types";
import { worktreeOf } from "./serve-worktree-of";

/** What happens to one file, given its merge (when merged). */
function outcomeOf(i: ApplyItem, merge: FileMerge | undefined): ApplyOutcome {
  if (i.refused) return { outcome: "refused", reason: i.refused };
  if (!i.conflict) return { outcome: i.action === "unchanged" ? "unchanged" : "apply" };
  if (!merge) return { outcome: "conflict" };
  if (merge.kind === "kept") return { outcome: "kept", reason: merge.reason };
  return merge.kind === "clean" ? { outcome: "merge" } : { outcome: "markers", hunks: merge.hunks };
}

export const worktreeApplyOps: Handlers<"worktree.apply"> = {
  "worktree.apply": async ({ store }, req) => {
    const ref = worktreeOf(store, req.threadId);
    const ledger = new EditLedger({ home: store.home });
    try {
      const plan = await planApply(ref, { ledger, threadId: req.threadId });
      // a dry run shows what a merge would make of each conflict; nothing is written either way
      const merges = req.merge || req.dryRun ? await planMerges(plan, ledger.blobs) : undefined;
      const files: ApplyFile[] = plan.items.map((i) => {
        const m = merges?.get(i.rel);
        return { ...outcomeOf(i, m), merge: m?.kind ?? null };
      });
      const planned = { plan: { ref: plan.ref, state: plan.state, items: plan.items }, files };
      if (req.dryRun) return planned;
      try {
        const result = await applyWorktree(ledger, req.threadId, plan, {
          force: req.force === true,
          ...(merges ? { merges } : {}),
        });
        const rels = (list: ApplyItem[]) => list.map((i) => i.rel);
        return {
          ...planned,
          result: { op: result.op?.op ?? null, applied: rels(result.applied), skipped: rels(result.skipped) },
        };
      } catch (err) {
        if (!(err instanceof AcpThreadsError)) throw err;
        return {
          ...planned,
          refused: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) },
        };
      }
    } finally {
      ledger.dispose();
    }
  },
};
