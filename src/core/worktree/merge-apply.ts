/**
 * The conflicts an apply left alone (#25 item 2), resolved one file at a time: the three versions to merge (the
 * file at the worktree's base commit, the workspace's copy, the worktree's) and, once the user settled one, the
 * write into the workspace recorded as its own follow-up `apply-…` operation of the thread (type "apply", one
 * file, a note naming the apply whose conflict it was). A separate operation, not an addition to the first one:
 * the first apply is already recorded and may have been restored meanwhile; each merge is undone on its own
 * (`acp-threads restore THREAD --op apply-…`, or the editor's Restore on that operation), and a restore to before
 * the turn takes back both.
 */
import { randomBytes } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { keepVersion, type BlobStore } from "../ledger/blob-store";
import type { EditLedger } from "../ledger/edit-ledger";
import type { OpView } from "../ledger/ledger-view";
import { diskWriter, type FileWriter } from "../ledger/restore";
import type { WorktreeRef } from "../model/records";
import { AcpThreadsError } from "../errors";
import type { LastApplied } from "./applied";
import { linkProblems } from "./link-guard";
import { gitBuffer } from "../platform/git";

export interface ConflictSides {
  /** The file at the worktree's base commit; null where it did not exist there. */
  base: Buffer | null;
  /** The workspace's copy now ("yours"); null when the user deleted it. */
  yours: Buffer | null;
  /** The worktree's copy ("theirs"); null when the agent deleted it. */
  theirs: Buffer | null;
}

const readOrNull = (path: string) =>
  readFile(path).catch((err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? null : Promise.reject(err)));

/** Neither side is read or written through a symbolic link that leaves its tree (link-guard.ts). */
async function refuseLinks(ref: WorktreeRef, rel: string): Promise<void> {
  const why = (await linkProblems(ref.path, ref.repo, [rel])).get(rel);
  if (why) throw new AcpThreadsError("usage", `refusing to merge through a symbolic link: ${why}`, { refused: [rel] });
}

/**
 * The three versions of the repository-relative `rel` (`/`-separated). With `from` (the plan item's
 * `lastApplied` and the ledger's blobs), the base is the worktree's version an earlier apply took in.
 */
export async function conflictSides(
  ref: WorktreeRef,
  rel: string,
  from?: { last: LastApplied; blobs: BlobStore },
): Promise<ConflictSides> {
  await refuseLinks(ref, rel);
  const taken = from && (from.last.source === null ? null : from.blobs.get(from.last.source.id!));
  const [base, yours, theirs] = await Promise.all([
    taken !== undefined
      ? taken
      : // `HEAD:path` style needs a commit and a path that exists there: ls-tree says whether it does first
        gitBuffer(ref.path, ["ls-tree", "-z", "--full-tree", ref.base, "--", rel]).then((out) =>
          out.length ? gitBuffer(ref.path, ["cat-file", "blob", `${ref.base}:${rel}`]) : null,
        ),
    readOrNull(join(ref.repo, rel)),
    readOrNull(join(ref.path, rel)),
  ]);
  return { base, yours, theirs };
}

/**
 * Writes what the user settled on for `rel` into the workspace (`null`: the file is deleted) and records it as a
 * one-file `apply-…` operation. `from` names the apply whose conflict this was (for the note); `writer`: the
 * editor's, which writes through an open document (default: the disk); `theirs` is the worktree's version that was
 * merged (read from the worktree when not given), recorded as what the operation took in so a later apply does not
 * offer the file again (applied.ts).
 */
export async function recordMergedFile(
  ledger: EditLedger,
  threadId: string,
  ref: WorktreeRef,
  rel: string,
  result: Buffer | null,
  from?: string,
  writer?: FileWriter,
  theirs?: Buffer | null,
): Promise<OpView | undefined> {
  await refuseLinks(ref, rel);
  const path = join(ref.repo, rel);
  const [main, taken] = await Promise.all([
    readOrNull(path),
    theirs !== undefined ? theirs : readOrNull(join(ref.path, rel)),
  ]);
  if (main === null && result === null) return undefined;
  if (main && result && main.equals(result)) return undefined;
  const op = `apply-${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  const startedAt = new Date().toISOString();
  const before = main ? await keepVersion(ledger.blobs, main) : null;
  const after = result ? await keepVersion(ledger.blobs, result) : null;
  const source = taken ? await keepVersion(ledger.blobs, taken) : null;
  if (result) {
    const mode = main
      ? (await stat(path)).mode & 0o777
      : await stat(join(ref.path, rel)).then(
          (s) => s.mode & 0o777,
          () => 0o644,
        );
    await (writer ?? diskWriter).write(path, result, mode);
  } else await (writer ?? diskWriter).remove(path);
  await ledger.append(threadId, [
    { kind: "change", op, path, before, after, via: "apply", source },
    {
      kind: "op",
      op,
      type: "apply",
      cwd: ref.repo,
      startedAt,
      status: "done",
      files: 1,
      notes: [
        `${rel}: merged by the user, a conflict ${from ? `of ${from} ` : ""}between the workspace and the worktree`,
      ],
    },
  ]);
  return ledger.read(threadId).ops.find((o) => o.op === op);
}
