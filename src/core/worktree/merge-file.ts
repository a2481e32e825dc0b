/**
 * A three-way merge of one file's contents with `git merge-file` (the same line merge git does): the three
 * versions go to a private temporary folder (git 2.39 cannot merge blob ids), the result is read from stdout.
 * Clashes are written with git's standard markers, labelled as given; `conflicts` counts them.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GitError } from "./git";

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

const MAX_BUFFER = 512 * 1024 * 1024;

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
    return await new Promise<TextMerge>((resolve, reject) =>
      execFile(
        "git",
        ["-c", "merge.conflictStyle=merge", ...args],
        { encoding: "buffer", maxBuffer: MAX_BUFFER, timeout: 120_000, windowsHide: true },
        (err, stdout, stderr) => {
          // the exit status is the number of conflicts (capped at 127); a failure is negative (255)
          const code: unknown = err ? (err as { code?: unknown }).code : 0;
          if (typeof code === "number" && code >= 0 && code < 128) {
            const conflicts = code === 127 ? countMarkers(stdout, labels.ours) : code;
            return resolve({ text: stdout, conflicts });
          }
          const text = stderr.toString().trim();
          reject(new GitError(args, text, `git merge-file failed: ${text || (err as Error).message}`));
        },
      ),
    );
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
