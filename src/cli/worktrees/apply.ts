/**
 * `worktrees apply THREAD [--dry-run] [--force] [--merge]`: the worktree's changes against its base into the
 * main workspace, through the thread's edit ledger (see src/core/worktree/apply.ts for the conflict rule and
 * merge-plan.ts for --merge). The plan compares against the thread's earlier applies of the worktree, so a file
 * applied or merged before is not a conflict again.
 */
import type { Engine, EngineReplies } from "../../core/engine/requests";
import type { ApplyOutcome } from "../../core/engine/requests-worktree";
import { AcpThreadsError } from "../../core/errors";
import { EXIT, type CliIO } from "../io";
import { writeJson } from "../threads/common";
import type { WorktreeThread } from "./thread";

type ApplyPlan = EngineReplies["worktree.apply"]["plan"];
type ApplyItem = ApplyPlan["items"][number];

const VERB = { create: "create", write: "write", delete: "delete", unchanged: "keep (already so)" } as const;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function lineOf(i: ApplyItem, o: ApplyOutcome): string {
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

function printPlan(io: CliIO, plan: ApplyPlan, threadId: string, outcomes: readonly ApplyOutcome[]): void {
  io.stdout.write(
    `apply the worktree of thread ${threadId} (${plan.ref.path}, base ${plan.ref.base.slice(0, 10)}) to ${plan.ref.repo}: ${plan.items.length} file(s)\n`,
  );
  plan.items.forEach((i, n) => io.stdout.write(`  ${lineOf(i, outcomes[n]!)}\n`));
}

const mergeHint = (threadId: string, n: number) =>
  `merge ${n === 1 ? "it" : "them"}: acp-threads worktrees apply ${threadId.slice(0, 13)} --merge (conflict markers where both changed the same lines), or the editor's "Merge ${plural(n, "conflict")}…"\n`;

export async function applyCommand(
  io: CliIO,
  engine: Engine,
  t: WorktreeThread,
  flags: { dryRun: boolean; force: boolean; merge: boolean; json: boolean },
): Promise<number> {
  const reply = await engine.call({
    op: "worktree.apply",
    threadId: t.threadId,
    ...(flags.dryRun ? { dryRun: true } : {}),
    ...(flags.force ? { force: true } : {}),
    ...(flags.merge ? { merge: true } : {}),
  });
  const { plan } = reply;
  const conflicts = plan.items.filter((i) => i.conflict);
  // each file's outcome (its JSON form), and whether it was merged: by plan item and by its path
  const outcomes = reply.files.map(({ merge: _, ...o }) => o as ApplyOutcome);
  const at = new Map(plan.items.map((i, n) => [i.rel, n]));
  const mergeOf = (i: ApplyItem) => reply.files[at.get(i.rel)!]!.merge;
  const detail = (i: ApplyItem) => outcomes[at.get(i.rel)!]! as ApplyOutcome & { hunks?: number; reason?: string };
  if (flags.dryRun) {
    if (flags.json)
      writeJson(io, {
        threadId: t.threadId,
        ...plan,
        items: plan.items.map((i, n) => ({ ...i, ...outcomes[n] })),
      });
    else {
      printPlan(io, plan, t.threadId, outcomes);
      if (conflicts.length && !flags.merge) io.stdout.write(mergeHint(t.threadId, conflicts.length));
    }
    return EXIT.ok;
  }
  if (!flags.json) printPlan(io, plan, t.threadId, outcomes);
  if (reply.refused) throw new AcpThreadsError(reply.refused.code, reply.refused.message, reply.refused.details);
  const done = reply.result!;
  const items = (rels: string[]) => rels.map((r) => plan.items[at.get(r)!]!);
  const result = { op: done.op, applied: items(done.applied), skipped: items(done.skipped) };
  const markers = result.applied.filter((i) => mergeOf(i) === "conflict");
  const kept = result.skipped.filter((i) => mergeOf(i) === "kept");
  const linked = result.skipped.filter((i) => !kept.includes(i) && (i.refused || !i.conflict));
  const left = result.skipped.filter((i) => !kept.includes(i) && !linked.includes(i));
  const code = flags.merge && (markers.length || result.skipped.length) ? EXIT.error : EXIT.ok;
  if (flags.json) {
    const applied = new Set(result.applied);
    writeJson(io, {
      threadId: t.threadId,
      op: result.op,
      applied: done.applied,
      skipped: done.skipped,
      // per file; a merge the workspace changed under is "conflict" (left as it was)
      files: plan.items.map((i, n) => {
        const f = { rel: i.rel, ...outcomes[n]! };
        return (f.outcome === "merge" || f.outcome === "markers") && !applied.has(i)
          ? { rel: f.rel, outcome: "conflict" }
          : f;
      }),
    });
    return code;
  }
  if (!result.op) io.stdout.write("nothing to apply: the workspace already has the worktree's changes\n");
  else {
    const merged = result.applied.filter((i) => i.conflict).length;
    io.stdout.write(
      `applied ${plural(result.applied.length, "file")}${merged ? ` (${merged} merged, ${markers.length} of them with conflict markers)` : ""}; recorded as ${result.op} (undo: acp-threads restore ${t.threadId.slice(0, 13)} --op ${result.op})\n`,
    );
  }
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
