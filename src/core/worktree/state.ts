/**
 * A worktree's state against its base commit: the files that differ (committed or not, new untracked files
 * included, ignored ones not), lines added and removed, and the commits made on top of the base.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { WorktreeRef } from "../model/records";
import { GONE_WORKTREE, type WorktreeChangeKind, type WorktreeFile, type WorktreeState } from "../model/worktree";
import { isSymlink } from "../util/real-inside";
import { git, zsplit } from "../platform/git";

export type { WorktreeChangeKind, WorktreeFile, WorktreeState } from "../model/worktree";

const KIND: Record<string, WorktreeChangeKind> = { A: "added", D: "deleted" };

export async function worktreeState(ref: WorktreeRef): Promise<WorktreeState> {
  if (!existsSync(join(ref.path, ".git"))) return { ...GONE_WORKTREE, files: [] };
  const cwd = ref.path;
  const [head, ahead, names, numstat, untracked] = await Promise.all([
    git(cwd, ["rev-parse", "HEAD"]),
    git(cwd, ["rev-list", "--count", `${ref.base}..HEAD`]),
    git(cwd, ["diff", "--name-status", "-z", "--no-renames", ref.base, "--"]),
    git(cwd, ["diff", "--numstat", "-z", "--no-renames", ref.base, "--"]),
    git(cwd, ["ls-files", "-z", "--others", "--exclude-standard"]),
  ]);
  const lines = new Map<string, [number | null, number | null]>();
  for (const f of zsplit(numstat)) {
    const [a, r, ...rest] = f.split("\t");
    lines.set(rest.join("\t"), a === "-" ? [null, null] : [Number(a), Number(r)]);
  }
  const files: WorktreeFile[] = [];
  const fields = zsplit(names);
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const path = fields[i + 1]!;
    const [added, removed] = lines.get(path) ?? [null, null];
    files.push({ path, change: KIND[fields[i]![0]!] ?? "modified", added, removed });
  }
  for (const path of zsplit(untracked)) {
    // a link is not read through (it may point out of the worktree): its lines are not counted
    const link = await isSymlink(join(cwd, path));
    const buf = link ? undefined : await readFile(join(cwd, path)).catch(() => undefined);
    const binary = !buf || buf.subarray(0, 8000).includes(0);
    const count = binary
      ? null
      : buf.length === 0
        ? 0
        : buf.toString("utf8").split("\n").length - (buf.at(-1) === 10 ? 1 : 0);
    files.push({ path, change: "added", added: count, removed: binary ? null : 0 });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    exists: true,
    head: head.trim(),
    ahead: Number(ahead.trim()) || 0,
    files,
    added: files.reduce((n, f) => n + (f.added ?? 0), 0),
    removed: files.reduce((n, f) => n + (f.removed ?? 0), 0),
  };
}
