/**
 * A three-way merge of one file's contents with `git merge-file` (the same line merge git does): the three
 * versions go to a private temporary folder (git 2.39 cannot merge blob ids), the result is read from stdout.
 * Clashes are written with git's standard markers, labelled as given; `conflicts` counts them.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitErrorOf, gitRun } from "../platform/git";

export interface TextMerge {
  text: Buffer;
  /** Conflict hunks marked in `text` (0: merged cleanly). */
  conflicts: number;
}

export interface MergeLabels {
  ours: string;
  base: string;
  theirs: string;
}

/** One conflicting file of an apply, merged (merge-plan.ts), or kept as the workspace has it. */
export type KeptReason = "deleted in the worktree" | "deleted in the workspace" | "binary";

export type FileMerge =
  | {
      kind: "clean" | "conflict";
      /** What is written to the workspace (with conflict markers when `kind` is "conflict"). */
      result: Buffer;
      /** Conflict hunks marked in `result`. */
      hunks: number;
      /** The worktree's version merged in (recorded as what the apply took in). */
      theirs: Buffer;
      /** Blob id of the workspace's copy merged; a different one at write time is not overwritten. */
      yoursId: string;
    }
  | { kind: "kept"; reason: KeptReason };

/** `ours` and `theirs` merged against `base` (null: the file did not exist there, merged as empty). */
export async function mergeFile(
  base: Buffer | null,
  ours: Buffer,
  theirs: Buffer,
  labels: MergeLabels,
): Promise<TextMerge> {
  const dir = await mkdtemp(join(tmpdir(), "acp-merge-"));
  try {
    const [o, b, t] = ["ours", "base", "theirs"].map((n) => join(dir, n)) as [string, string, string];
    await Promise.all([
      writeFile(o, ours, { mode: 0o600 }),
      writeFile(b, base ?? Buffer.alloc(0), { mode: 0o600 }),
      writeFile(t, theirs, { mode: 0o600 }),
    ]);
    const args = ["merge-file", "-p", "-L", labels.ours, "-L", labels.base, "-L", labels.theirs, o, b, t];
    const { code, stdout, result } = await gitRun(dir, args, { config: ["merge.conflictStyle=merge"] });
    // the exit status is the number of conflicts (capped at 127); a failure is negative (255)
    if (code === null || code >= 128 || result.signal) throw gitErrorOf(args, result);
    return { text: stdout, conflicts: code === 127 ? countMarkers(stdout, labels.ours) : code };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function countMarkers(text: Buffer, ours: string): number {
  const marker = `<<<<<<< ${ours}`;
  return text
    .toString("utf8")
    .split("\n")
    .filter((l) => l === marker || l === `${marker}\r`).length;
}
