/**
 * "Apply to workspace": a worktree's changes against its base (committed or not, new and deleted files
 * included) written into the main workspace through the edit ledger — recorded as an `apply-…` operation of the
 * thread, so `acp-threads restore THREAD --op apply-…` (or a restore to before an earlier turn) takes it back.
 *
 * Per file, comparing git blob ids (no file is read twice): the workspace's copy equals the worktree's →
 * nothing to do; equals the base's → written (created, deleted); anything else is a conflict: the user changed
 * the file since the base and the worktree changed it too. Conflicts are never overwritten: without `force`
 * nothing is applied (the plan names them); with `force` every other file is applied and the conflicting ones
 * are left as they are (listed in the operation's notes).
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
import { git, zsplit } from "./git";
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
  /** Conflicting files left as they are (`force`). */
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

export async function planApply(ref: WorktreeRef): Promise<ApplyPlan> {
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
  const items = await Promise.all(
    state.files.map(async (f): Promise<ApplyItem> => {
      const path = join(ref.repo, f.path);
      const [wt, main] = await Promise.all([readOrNull(join(ref.path, f.path)), readOrNull(path)]);
      const mainId = gitBlobId(main);
      const item = { rel: f.path, path, change: f.change };
      if (mainId === gitBlobId(wt)) return { ...item, action: "unchanged", conflict: false };
      const action = !wt ? "delete" : !main ? "create" : "write";
      return { ...item, action, conflict: mainId !== (ids.get(f.path) ?? null) };
    }),
  );
  return { ref, state, items };
}

/** Writes the plan into the workspace and records it in `threadId`'s ledger (see the top of this file). */
export async function applyWorktree(
  ledger: EditLedger,
  threadId: string,
  plan: ApplyPlan,
  opts: { force?: boolean; writer?: FileWriter } = {},
): Promise<ApplyResult> {
  // the editor passes one that writes through open documents, so an open editor shows what was applied
  const writer = opts.writer ?? diskWriter;
  const conflicts = plan.items.filter((i) => i.conflict);
  if (conflicts.length && !opts.force)
    throw new AcpThreadsError(
      "usage",
      `${conflicts.length} file${conflicts.length === 1 ? "" : "s"} changed in the workspace since the worktree's base and in the worktree too: ${conflicts.map((c) => c.rel).join(", ")}. Nothing was applied. Merge ${conflicts.length === 1 ? "it" : "them"} by hand, or give --force to apply the other files (the conflicting ones are left as they are).`,
      { conflicts: conflicts.map((c) => c.rel) },
    );
  const todo = plan.items.filter((i) => !i.conflict && i.action !== "unchanged");
  if (!todo.length) return { applied: [], skipped: conflicts };
  const op = `apply-${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  const startedAt = new Date().toISOString();
  const changes: LedgerInput[] = [];
  await inBatches(todo, 16, async (item) => {
    const source = join(plan.ref.path, item.rel);
    const [wt, main] = await Promise.all([readOrNull(source), readOrNull(item.path)]);
    const before: FileState | null = main ? await keepVersion(ledger.blobs, main) : null;
    const after: FileState | null = wt ? await keepVersion(ledger.blobs, wt) : null;
    if (wt) await writer.write(item.path, wt, (await stat(source)).mode & 0o777);
    else await writer.remove(item.path);
    changes.push({ kind: "change", op, path: item.path, before, after, via: "apply" });
  });
  const notes = conflicts.map((c) => `${c.rel}: not applied, it changed in the workspace too`);
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
      ...(notes.length ? { notes, forced: true } : {}),
    },
  ]);
  return { op: ledger.read(threadId).ops.find((o) => o.op === op), applied: todo, skipped: conflicts };
}
