/**
 * "Apply to workspace": a worktree's changes against its base (committed or not, new and deleted files
 * included) written into the main workspace through the edit ledger — recorded as an `apply-…` operation of the
 * thread, so `acp-threads restore THREAD --op apply-…` (or a restore to before an earlier turn) takes it back.
 *
 * Per file, comparing git blob ids (no file is read twice): the workspace's copy equals the worktree's →
 * nothing to do; equals the base's → written (created, deleted); anything else is a conflict: the user changed
 * the file since the base and the worktree changed it too. Conflicts are never overwritten: without `force`
 * nothing is applied (the plan names them); with `force` every other file is applied and the conflicting ones
 * are left as they are (listed in the operation's notes); with `merges` (merge-plan.ts) the ones merged are
 * written too, in the same operation.
 *
 * Nothing is read or written through a symbolic link that leaves the worktree or the workspace, and a link in
 * the worktree is never applied as the file it points to (link-guard.ts): such files are `refused`, checked for
 * all files before anything is written; without `force` nothing is applied (the error names them), with `force`
 * they are left out like conflicts.
 *
 * Given the thread's ledger, "the base" of a file an earlier apply of this worktree wrote (and no restore took
 * back) is the worktree's version that apply took in (applied.ts): a worktree copy still equal to it is nothing
 * new, and a merged file is not offered again as a conflict.
 */
import { createHash, randomBytes } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { AcpThreadsError } from "../errors";
import { keepVersion } from "../ledger/blob-store";
import type { FileState } from "../ledger/content";
import type { EditLedger } from "../ledger/edit-ledger";
import type { OpView } from "../ledger/ledger-view";
import type { LedgerInput } from "../ledger/records";
import { diskWriter, inBatches, type FileWriter } from "../ledger/restore";
import type { WorktreeRef } from "../model/records";
import { git, zsplit } from "../platform/git";
import { lastApplied, type LastApplied } from "./applied";
import { linkProblems } from "./link-guard";
import type { FileMerge } from "./merge-file";
import { worktreeState, type WorktreeChangeKind, type WorktreeState } from "./state";

export interface ApplyItem {
  /** Repository-relative, `/`-separated. */
  rel: string;
  /** The file in the main workspace. */
  path: string;
  change: WorktreeChangeKind;
  action: "write" | "create" | "delete" | "unchanged";
  /** The workspace's copy changed since the base, and differently from the worktree's. */
  conflict: boolean;
  /**
   * Present when an earlier apply of this worktree wrote the file (and still stands): the comparison (and a
   * merge's base) is the worktree's version that apply took in, not the base commit's.
   */
  lastApplied?: LastApplied;
  /** Why the file is not applied: it goes through a symbolic link (link-guard.ts). */
  refused?: string;
}

/** The thread whose ledger holds the worktree's earlier applies. */
export interface ApplyHistory {
  ledger: EditLedger;
  threadId: string;
}

export interface ApplyPlan {
  ref: WorktreeRef;
  state: WorktreeState;
  items: ApplyItem[];
}

export interface ApplyResult {
  /** The recorded operation (undefined when there was nothing to write). */
  op?: OpView;
  applied: ApplyItem[];
  /** Conflicting files left as they are (`force`, or not mergeable / changed meanwhile with `merges`). */
  skipped: ApplyItem[];
}

/** git's blob id of `buf` (what `git hash-object` prints, without filters). */
function gitBlobId(buf: Buffer | null): string | null {
  if (!buf) return null;
  return createHash("sha1").update(`blob ${buf.length}\0`).update(buf).digest("hex");
}

const readOrNull = (path: string) =>
  readFile(path).catch((err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? null : Promise.reject(err)));

/** Base blob ids of `paths` (absent paths are left out). */
async function baseIds(ref: WorktreeRef, paths: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!paths.length) return out;
  const want = new Set(paths);
  for (const line of zsplit(await git(ref.path, ["ls-tree", "-r", "-z", "--full-tree", ref.base]))) {
    const tab = line.indexOf("\t");
    const path = line.slice(tab + 1);
    if (want.has(path)) out.set(path, line.slice(0, tab).split(" ")[2]!);
  }
  return out;
}

export async function planApply(ref: WorktreeRef, history?: ApplyHistory): Promise<ApplyPlan> {
  const state = await worktreeState(ref);
  if (!state.exists)
    throw new AcpThreadsError(
      "not_found",
      `the worktree folder ${ref.path} is gone (deleted by hand?), so there is nothing to apply; 'acp-threads worktrees discard' forgets it`,
    );
  const ids = await baseIds(
    ref,
    state.files.map((f) => f.path),
  );
  const applied = history ? lastApplied(history.ledger.read(history.threadId), ref) : new Map<string, LastApplied>();
  const refused = await linkProblems(
    ref.path,
    ref.repo,
    state.files.map((f) => f.path),
  );
  const items = await Promise.all(
    state.files.map(async (f): Promise<ApplyItem> => {
      const path = join(ref.repo, f.path);
      const why = refused.get(f.path);
      if (why) {
        const action = f.change === "deleted" ? "delete" : f.change === "added" ? "create" : "write";
        return { rel: f.path, path, change: f.change, action, conflict: false, refused: why };
      }
      const [wt, main] = await Promise.all([readOrNull(join(ref.path, f.path)), readOrNull(path)]);
      const [mainId, wtId] = [gitBlobId(main), gitBlobId(wt)];
      const last = applied.get(f.path);
      const item = { rel: f.path, path, change: f.change, ...(last ? { lastApplied: last } : {}) };
      if (mainId === wtId) return { ...item, action: "unchanged", conflict: false };
      const baseId = last ? (last.source?.id ?? null) : (ids.get(f.path) ?? null);
      // the worktree's copy is the one taken in last time: what the workspace has now is the user's
      if (last && wtId === baseId) return { ...item, action: "unchanged", conflict: false };
      const action = !wt ? "delete" : !main ? "create" : "write";
      return { ...item, action, conflict: mainId !== baseId };
    }),
  );
  return { ref, state, items };
}

/** The worktree file's mode (the workspace's when the worktree's went meanwhile, else 0644). */
const modeOf = (source: string, path: string): Promise<number> =>
  stat(source)
    .catch(() => stat(path))
    .then(
      (s) => s.mode & 0o777,
      () => 0o644,
    );

/**
 * Writes the plan into the workspace and records it in `threadId`'s ledger (see the top of this file). With
 * `merges`, conflicting files that have a merge result are written too (same operation); the others are left.
 */
export async function applyWorktree(
  ledger: EditLedger,
  threadId: string,
  plan: ApplyPlan,
  opts: { force?: boolean; writer?: FileWriter; merges?: ReadonlyMap<string, FileMerge> } = {},
): Promise<ApplyResult> {
  // the editor passes one that writes through open documents, so an open editor shows what was applied
  const writer = opts.writer ?? diskWriter;
  // checked again now for every file (the plan may be old), before anything is written
  const now = await linkProblems(
    plan.ref.path,
    plan.ref.repo,
    plan.items.filter((i) => i.action !== "unchanged" || i.refused).map((i) => i.rel),
  );
  const refused = plan.items.filter((i) => now.has(i.rel) || i.refused);
  if (refused.length && !opts.force)
    throw new AcpThreadsError(
      "usage",
      `refusing to apply through symbolic links: ${refused.map((i) => now.get(i.rel) ?? i.refused).join("; ")}. Nothing was applied. Give --force to apply the other files (these are left as they are).`,
      { refused: refused.map((i) => i.rel) },
    );
  const conflicts = plan.items.filter((i) => i.conflict && !refused.includes(i));
  if (conflicts.length && !opts.force && !opts.merges)
    throw new AcpThreadsError(
      "usage",
      `${conflicts.length} file${conflicts.length === 1 ? "" : "s"} changed in the workspace since the worktree's base and in the worktree too: ${conflicts.map((c) => c.rel).join(", ")}. Nothing was applied. Merge ${conflicts.length === 1 ? "it" : "them"} (--merge, or the editor's "Merge ${conflicts.length} conflict${conflicts.length === 1 ? "" : "s"}…"), or give --force to apply the other files (the conflicting ones are left as they are).`,
      { conflicts: conflicts.map((c) => c.rel) },
    );
  const mergeOf = (i: ApplyItem) => {
    const m = i.conflict ? opts.merges?.get(i.rel) : undefined;
    return m && m.kind !== "kept" ? m : undefined;
  };
  const todo = plan.items.filter((i) =>
    refused.includes(i) ? false : i.conflict ? !!mergeOf(i) : i.action !== "unchanged",
  );
  const skipped = conflicts.filter((i) => !mergeOf(i));
  const notes = skipped.map((c) => {
    const m = opts.merges?.get(c.rel);
    return `${c.rel}: not applied, ${m?.kind === "kept" ? `kept yours: ${m.reason}` : "it changed in the workspace too"}`;
  });
  for (const i of refused) notes.push(`${i.rel}: not applied, ${now.get(i.rel) ?? i.refused}`);
  skipped.push(...refused);
  const op = `apply-${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  const startedAt = new Date().toISOString();
  const changes: LedgerInput[] = [];
  const applied: ApplyItem[] = [];
  await inBatches(todo, 16, async (item) => {
    const source = join(plan.ref.path, item.rel);
    const merge = mergeOf(item);
    const [wt, main] = await Promise.all([merge ? merge.theirs : readOrNull(source), readOrNull(item.path)]);
    if (merge && gitBlobId(main) !== merge.yoursId) {
      skipped.push(item); // changed again since it was merged: never overwritten
      notes.push(`${item.rel}: not applied, it changed in the workspace while it was merged`);
      return;
    }
    const content = merge ? merge.result : wt;
    const before: FileState | null = main ? await keepVersion(ledger.blobs, main) : null;
    const after: FileState | null = content ? await keepVersion(ledger.blobs, content) : null;
    const taken: FileState | null = merge ? await keepVersion(ledger.blobs, merge.theirs) : after;
    if (content) await writer.write(item.path, content, await modeOf(source, item.path));
    else await writer.remove(item.path);
    changes.push({ kind: "change", op, path: item.path, before, after, via: "apply", source: taken });
    applied.push(item);
    if (merge)
      notes.push(
        merge.kind === "clean"
          ? `${item.rel}: merged with the workspace's changes`
          : `${item.rel}: merged with ${merge.hunks} conflict${merge.hunks === 1 ? "" : "s"} marked in the file`,
      );
  });
  if (!changes.length) return { applied: [], skipped };
  await ledger.append(threadId, [
    ...changes,
    {
      kind: "op",
      op,
      type: "apply",
      cwd: plan.ref.repo,
      startedAt,
      status: "done",
      files: changes.length,
      ...(notes.length ? { notes } : {}),
      ...(skipped.length ? { forced: true } : {}),
    },
  ]);
  const order = (list: ApplyItem[]) => plan.items.filter((i) => list.includes(i));
  return { op: ledger.read(threadId).ops.find((o) => o.op === op), applied: order(applied), skipped: order(skipped) };
}
