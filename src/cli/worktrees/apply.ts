/**
 * `worktrees apply THREAD [--dry-run] [--force] [--merge]`: the worktree's changes against its base into the
 * main workspace, through the thread's edit ledger (see src/core/worktree/apply.ts for the conflict rule and
 * merge-plan.ts for --merge). The plan compares against the thread's earlier applies of the worktree, so a file
 * applied or merged before is not a conflict again.
 */
import type { EditLedger } from "../../core/ledger/edit-ledger";
import { applyWorktree, planApply, type ApplyItem, type ApplyPlan } from "../../core/worktree/apply";
import type { FileMerge } from "../../core/worktree/merge-file";
import { planMerges } from "../../core/worktree/merge-plan";
import { EXIT, type CliIO } from "../io";
import { writeJson } from "../threads/common";
import type { WorktreeThread } from "./thread";

const VERB = { create: "create", write: "write", delete: "delete", unchanged: "keep (already so)" } as const;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** What happens to one file: its JSON form (`outcome`) and its line in the text plan. */
function outcomeOf(i: ApplyItem, merge: FileMerge | undefined) {
  if (i.refused) return { outcome: "refused", reason: i.refused } as const;
  if (!i.conflict) return { outcome: i.action === "unchanged" ? "unchanged" : "apply" } as const;
  if (!merge) return { outcome: "conflict" } as const;
  if (merge.kind === "kept") return { outcome: "kept", reason: merge.reason } as const;
  return merge.kind === "clean"
    ? ({ outcome: "merge" } as const)
    : ({ outcome: "markers", hunks: merge.hunks } as const);
}

function lineOf(i: ApplyItem, merge: FileMerge | undefined): string {
  const o = outcomeOf(i, merge);
  const since = i.lastApplied ? "the last apply" : "the base";
  switch (o.outcome) {
    case "unchanged":
      return `${VERB.unchanged} ${i.rel}${i.lastApplied ? "  (the worktree's copy was applied before)" : ""}`;
    case "apply":
      return `${VERB[i.action].padEnd(8)} ${i.rel}`;
    case "conflict":
      return `${VERB[i.action].padEnd(8)} ${i.rel}  ← CHANGED IN THE WORKSPACE TOO since ${since} (conflict)`;
    case "merge":
      return `merge    ${i.rel}  ← changed in the workspace too since ${since}: clean merge`;
    case "markers":
      return `merge    ${i.rel}  ← changed in the workspace too since ${since}: conflict (${plural(o.hunks, "hunk")})`;
    case "kept":
      return `keep     ${i.rel}  ← changed in the workspace too since ${since}: kept yours: ${o.reason}`;
    case "refused":
      return `refuse   ${i.rel}  ← ${o.reason}`;
  }
}

function printPlan(io: CliIO, plan: ApplyPlan, threadId: string, merges?: Map<string, FileMerge>): void {
  io.stdout.write(
    `apply the worktree of thread ${threadId} (${plan.ref.path}, base ${plan.ref.base.slice(0, 10)}) to ${plan.ref.repo}: ${plan.items.length} file(s)\n`,
  );
  for (const i of plan.items) io.stdout.write(`  ${lineOf(i, merges?.get(i.rel))}\n`);
}

const mergeHint = (threadId: string, n: number) =>
  `merge ${n === 1 ? "it" : "them"}: acp-threads worktrees apply ${threadId.slice(0, 13)} --merge (conflict markers where both changed the same lines), or the editor's "Merge ${plural(n, "conflict")}…"\n`;

export async function applyCommand(
  io: CliIO,
  t: WorktreeThread,
  ledger: EditLedger,
  flags: { dryRun: boolean; force: boolean; merge: boolean; json: boolean },
): Promise<number> {
  const plan = await planApply(t.worktree, { ledger, threadId: t.threadId });
  const conflicts = plan.items.filter((i) => i.conflict);
  // a dry run shows what --merge would make of each conflict; nothing is written either way
  const merges = flags.merge || flags.dryRun ? await planMerges(plan, ledger.blobs) : undefined;
  const files = () => plan.items.map((i) => ({ rel: i.rel, ...outcomeOf(i, merges?.get(i.rel)) }));
  if (flags.dryRun) {
    if (flags.json)
      writeJson(io, {
        threadId: t.threadId,
        ...plan,
        items: plan.items.map((i) => ({ ...i, ...outcomeOf(i, merges?.get(i.rel)) })),
      });
    else {
      printPlan(io, plan, t.threadId, merges);
      if (conflicts.length && !flags.merge) io.stdout.write(mergeHint(t.threadId, conflicts.length));
    }
    return EXIT.ok;
  }
  if (!flags.json) printPlan(io, plan, t.threadId, merges);
  const result = await applyWorktree(ledger, t.threadId, plan, { force: flags.force, ...(merges ? { merges } : {}) });
  const markers = result.applied.filter((i) => merges?.get(i.rel)?.kind === "conflict");
  const kept = result.skipped.filter((i) => merges?.get(i.rel)?.kind === "kept");
  const linked = result.skipped.filter((i) => !kept.includes(i) && (i.refused || !i.conflict));
  const left = result.skipped.filter((i) => !kept.includes(i) && !linked.includes(i));
  const code = flags.merge && (markers.length || result.skipped.length) ? EXIT.error : EXIT.ok;
  if (flags.json) {
    const applied = new Set(result.applied);
    writeJson(io, {
      threadId: t.threadId,
      op: result.op?.op ?? null,
      applied: result.applied.map((i) => i.rel),
      skipped: result.skipped.map((i) => i.rel),
      // per file; a merge the workspace changed under is "conflict" (left as it was)
      files: files().map((f, n) =>
        (f.outcome === "merge" || f.outcome === "markers") && !applied.has(plan.items[n]!)
          ? { rel: f.rel, outcome: "conflict" }
          : f,
      ),
    });
    return code;
  }
  if (!result.op) io.stdout.write("nothing to apply: the workspace already has the worktree's changes\n");
  else {
    const merged = result.applied.filter((i) => i.conflict).length;
    io.stdout.write(
      `applied ${plural(result.applied.length, "file")}${merged ? ` (${merged} merged, ${markers.length} of them with conflict markers)` : ""}; recorded as ${result.op.op} (undo: acp-threads restore ${t.threadId.slice(0, 13)} --op ${result.op.op})\n`,
    );
  }
  const detail = (i: ApplyItem) => outcomeOf(i, merges?.get(i.rel));
  if (markers.length) {
    io.stdout.write(
      `${plural(markers.length, "file")} written with conflict markers (<<<<<<< workspace … >>>>>>> worktree): resolve the markers, then save (the apply is recorded; a later apply merges against it):\n`,
    );
    for (const i of markers) io.stdout.write(`  ${i.rel} (${plural(detail(i).hunks ?? 0, "conflict")})\n`);
  }
  if (kept.length) {
    io.stdout.write(`${plural(kept.length, "file")} not merged, kept yours:\n`);
    for (const i of kept) io.stdout.write(`  ${i.rel}: kept yours: ${detail(i).reason ?? "not merged"}\n`);
  }
  for (const s of left) io.stdout.write(`not applied (changed in the workspace too): ${s.rel}\n`);
  for (const s of linked) io.stdout.write(`not applied (symbolic link): ${s.refused ?? s.rel}\n`);
  if (left.length && !flags.merge) io.stdout.write(mergeHint(t.threadId, left.length));
  return code;
}
