/**
 * "Merge Worktree Conflicts…" (#25 item 2): each file an apply left alone because the user changed it too is
 * resolved in VS Code's merge editor — base = the file at the worktree's base commit, "Yours (workspace)" = the
 * workspace's copy, "Agent's worktree" = the worktree's — through merge-view.ts (a scratch result prefilled with
 * the three-way merge). Nothing is written until the user completes the merge (or settles every conflict from the
 * notification); then the result is written to the workspace file and recorded as a one-file `apply-…` operation
 * (src/core/worktree/merge-apply.ts) that Restore takes back. A file deleted on one side, or a binary one, is a
 * plain choice (keep mine / take the worktree's), not a merge.
 */
import * as vscode from "vscode";
import { planApply, type ApplyItem } from "../../core/worktree/apply";
import { conflictSides, recordMergedFile, type ConflictSides } from "../../core/worktree/merge-apply";
import { mergeAgentWrite } from "../../core/text/agent-write";
import type { Hub } from "../hub";
import { resolveConflict, type ConflictToResolve } from "../merge-view";
import { worktreeTarget, type WorktreeTarget } from "./target";
import { applyWriter } from "../ledger/ledger-host";

export interface MergeOptions {
  /** Only these repository-relative files (default: every conflict of the worktree). */
  files?: string[];
  /** The apply operation whose conflicts these are (named in the new operations' notes). */
  from?: string;
  /** The answer for files deleted on one side or binary (scripts, tests); asked when absent. */
  whole?: "mine" | "theirs";
}

export interface MergeOutcome {
  /** Files settled (written or kept), the operations recorded, and the files left as they were. */
  merged: string[];
  ops: string[];
  left: string[];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const MINE = "Keep mine";
const THEIRS = "Take the worktree's";

const isBinary = (b: Buffer | null) => !!b && b.subarray(0, 8000).includes(0);

/** Deleted on one side, or binary: which whole file wins. undefined = left as it is. */
async function chooseWhole(
  t: WorktreeTarget,
  item: ApplyItem,
  sides: ConflictSides,
  preset?: "mine" | "theirs",
): Promise<Buffer | null | undefined> {
  let pick = preset;
  if (!pick) {
    const what = !sides.theirs
      ? "the agent deleted it in the worktree, and you changed it in the workspace"
      : !sides.yours
        ? "you deleted it in the workspace, and the agent changed it in the worktree"
        : "it is binary and changed in both, so there is nothing to merge line by line";
    const answer = await vscode.window.showWarningMessage(
      `${item.rel}: ${what}.`,
      {
        modal: true,
        detail: `Keep mine leaves the workspace's ${sides.yours ? "file" : "deletion"}; Take the worktree's ${sides.theirs ? "copies the worktree's file" : "deletes the file"} (recorded, Restore takes it back). Worktree of “${t.title}”.`,
      },
      MINE,
      THEIRS,
    );
    pick = answer === MINE ? "mine" : answer === THEIRS ? "theirs" : undefined;
  }
  return pick === "mine" ? sides.yours : pick === "theirs" ? sides.theirs : undefined;
}

/** Text on both sides: the merge editor. undefined = closed unresolved. */
async function mergeInEditor(t: WorktreeTarget, item: ApplyItem, sides: ConflictSides): Promise<Buffer | undefined> {
  const base = sides.base?.toString("utf8") ?? "";
  const yours = sides.yours!.toString("utf8");
  const theirs = sides.theirs!.toString("utf8");
  const m = mergeAgentWrite(base, theirs, yours);
  const common = { path: item.path, base, yours, agent: theirs };
  const c: ConflictToResolve =
    m.kind === "clean"
      ? // merges by itself: still shown, written only once the user completes it
        {
          ...common,
          marked: m.text,
          agentWins: m.text,
          userWins: m.text,
          conflicts: 0,
          firstConflictLine: 1,
          unresolved: "\0",
        }
      : {
          ...common,
          marked: m.marked,
          agentWins: m.agentWins,
          userWins: m.userWins,
          unresolved: m.unresolved,
          conflicts: m.conflicts.length,
          firstConflictLine: m.firstConflictLine,
        };
  const text = await resolveConflict({
    ...c,
    labels: {
      yours: "Yours (workspace)",
      agent: "Agent's worktree",
      message: (rel, where) =>
        `${rel} changed in the workspace and in the worktree of “${t.title}”${c.conflicts ? ` (they clash at ${where})` : " (in different places)"}. Resolve it in the merge editor and choose Complete Merge: the result is written to ${rel}. Or settle every clash at once.`,
      accept: "Take the worktree's side",
      keep: "Keep mine",
      cancel: "Leave it as it is",
    },
  });
  return text === undefined ? undefined : Buffer.from(text, "utf8");
}

export async function mergeWorktreeConflicts(
  hub: Hub,
  arg?: unknown,
  opts: MergeOptions = {},
): Promise<MergeOutcome | undefined> {
  const t = await worktreeTarget(hub, arg, "Merge the conflicts of which worktree?");
  if (!t) return undefined;
  const plan = await planApply(t.ref, { ledger: hub.ledger.ledger, threadId: t.threadId });
  const conflicts = plan.items.filter((i) => i.conflict && (!opts.files || opts.files.includes(i.rel)));
  const out: MergeOutcome = { merged: [], ops: [], left: [] };
  if (!conflicts.length) {
    void vscode.window.showInformationMessage("No file of the worktree conflicts with the workspace.");
    return out;
  }
  try {
    for (const item of conflicts) {
      const last = item.lastApplied && { last: item.lastApplied, blobs: hub.ledger.ledger.blobs };
      const sides = await conflictSides(t.ref, item.rel, last);
      const whole = !sides.yours || !sides.theirs || isBinary(sides.yours) || isBinary(sides.theirs);
      const result = whole ? await chooseWhole(t, item, sides, opts.whole) : await mergeInEditor(t, item, sides);
      if (result === undefined) {
        out.left.push(item.rel);
        continue;
      }
      const op = await recordMergedFile(
        hub.ledger.ledger,
        t.threadId,
        t.ref,
        item.rel,
        result,
        opts.from,
        applyWriter,
        sides.theirs,
      );
      out.merged.push(item.rel);
      if (op) out.ops.push(op.op);
    }
  } finally {
    if (out.ops.length) {
      hub.ledger.host.changed(t.threadId);
      // each merged file is reviewed hunk by hunk, like the apply's
      hub.ledger.watch(t.threadId);
    }
    hub.worktrees.invalidate(t.threadId, t.ref);
  }
  if (out.merged.length || out.left.length)
    void vscode.window.showInformationMessage(
      `Merged ${plural(out.merged.length, "file")} of the worktree${out.left.length ? `; ${plural(out.left.length, "file")} left as ${out.left.length === 1 ? "it was" : "they were"}` : ""}.${out.ops.length ? " Each merge is recorded in the thread's changes: Restore takes it back." : ""}`,
    );
  return out;
}
