/**
 * `worktrees apply THREAD [--dry-run] [--force]`: the worktree's changes against its base into the main
 * workspace, through the thread's edit ledger (see src/core/worktree/apply.ts for the conflict rule).
 */
import type { EditLedger } from "../../core/ledger/edit-ledger";
import { applyWorktree, planApply, type ApplyPlan } from "../../core/worktree/apply";
import { EXIT, type CliIO } from "../io";
import { writeJson } from "../threads/common";
import type { WorktreeThread } from "./thread";

const VERB = { create: "create", write: "write", delete: "delete", unchanged: "keep (already so)" } as const;

function printPlan(io: CliIO, plan: ApplyPlan, threadId: string): void {
  io.stdout.write(
    `apply the worktree of thread ${threadId} (${plan.ref.path}, base ${plan.ref.base.slice(0, 10)}) to ${plan.ref.repo}: ${plan.items.length} file(s)\n`,
  );
  for (const i of plan.items)
    io.stdout.write(
      `  ${VERB[i.action].padEnd(8)} ${i.rel}${i.conflict ? "  ← CHANGED IN THE WORKSPACE TOO since the base (conflict)" : ""}\n`,
    );
}

export async function applyCommand(
  io: CliIO,
  t: WorktreeThread,
  ledger: EditLedger,
  flags: { dryRun: boolean; force: boolean; json: boolean },
): Promise<number> {
  const plan = await planApply(t.worktree);
  if (flags.json && flags.dryRun) writeJson(io, { threadId: t.threadId, ...plan });
  else if (!flags.json) printPlan(io, plan, t.threadId);
  if (flags.dryRun) return EXIT.ok;
  const result = await applyWorktree(ledger, t.threadId, plan, { force: flags.force });
  if (flags.json) {
    writeJson(io, {
      threadId: t.threadId,
      op: result.op?.op ?? null,
      applied: result.applied.map((i) => i.rel),
      skipped: result.skipped.map((i) => i.rel),
    });
    return EXIT.ok;
  }
  if (!result.op) io.stdout.write("nothing to apply: the workspace already has the worktree's changes\n");
  else
    io.stdout.write(
      `applied ${result.applied.length} file(s); recorded as ${result.op.op} (undo: acp-threads restore ${t.threadId.slice(0, 13)} --op ${result.op.op})\n`,
    );
  for (const s of result.skipped) io.stdout.write(`not applied (changed in the workspace too): ${s.rel}\n`);
  return EXIT.ok;
}
