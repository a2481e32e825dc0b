/**
 * `worktrees apply --merge` (#25 leftovers): each conflicting file of an apply plan merged three-way — base =
 * the worktree's base commit's version (or the version an earlier apply took in, applied.ts), ours = the
 * workspace's copy, theirs = the worktree's — with `git merge-file`. Computed without writing anything (a dry
 * run shows it); applyWorktree writes the results. Deleted on one side, or binary: never merged, the workspace's
 * copy is kept.
 */
import { basename } from "node:path";
import { blobId, type BlobStore } from "../ledger/blob-store";
import { isBinary } from "../ledger/content";
import { inBatches } from "../ledger/restore";
import type { ApplyPlan } from "./apply";
import { conflictSides } from "./merge-apply";
import { mergeFile, type FileMerge } from "./merge-file";

/** The conflict markers' names: `<<<<<<< workspace` / `>>>>>>> worktree <folder name>`. */
export const mergeLabels = (plan: ApplyPlan) => ({
  ours: "workspace",
  base: "base",
  theirs: `worktree ${basename(plan.ref.path)}`,
});

/**
 * Repository-relative path → its merge, for every conflict of `plan` (in the plan's order; a few files at a
 * time, each costs three git processes). `blobs`: the ledger's (for the versions earlier applies took in).
 */
export async function planMerges(plan: ApplyPlan, blobs?: BlobStore): Promise<Map<string, FileMerge>> {
  const labels = mergeLabels(plan);
  const conflicts = plan.items.filter((i) => i.conflict);
  const found = new Map<string, FileMerge>();
  await inBatches(conflicts, 4, async (item) => {
    const last = item.lastApplied && blobs ? { last: item.lastApplied, blobs } : undefined;
    const { base, yours, theirs } = await conflictSides(plan.ref, item.rel, last);
    if (!theirs || !yours || [base, yours, theirs].some((b) => b && isBinary(b))) {
      const reason = !theirs ? "deleted in the worktree" : !yours ? "deleted in the workspace" : "binary";
      found.set(item.rel, { kind: "kept", reason });
      return;
    }
    const m = await mergeFile(base, yours, theirs, labels);
    found.set(item.rel, {
      kind: m.conflicts ? "conflict" : "clean",
      result: m.text,
      hunks: m.conflicts,
      theirs,
      yoursId: blobId(yours),
    });
  });
  return new Map(conflicts.map((i) => [i.rel, found.get(i.rel)!]));
}
