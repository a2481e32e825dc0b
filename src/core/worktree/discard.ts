/**
 * Discarding a worktree: `git worktree remove --force`, then `git worktree prune` (a folder deleted by hand
 * leaves git's record of it behind), then the folder itself if anything is left. Only a folder in the place we
 * manage beside the repository is ever deleted: a thread's metadata is data, not a licence to remove a path.
 */
import { existsSync } from "node:fs";
import { readdir, rm, rmdir } from "node:fs/promises";
import { dirname } from "node:path";
import { AcpThreadsError, errorMessage } from "../errors";
import type { WorktreeRef } from "../model/records";
import type { DiscardResult } from "../model/worktree";
import { git } from "../platform/git";
import { isManagedPath } from "./layout";

export type { DiscardResult } from "../model/worktree";

export async function discardWorktree(ref: WorktreeRef): Promise<DiscardResult> {
  if (!isManagedPath(ref.repo, ref.path))
    throw new AcpThreadsError(
      "usage",
      `${ref.path} is not a worktree folder ACP Threads manages for ${ref.repo}; it is left alone`,
    );
  const warnings: string[] = [];
  const wasMissing = !existsSync(ref.path);
  const repoThere = existsSync(ref.repo);
  if (repoThere && !wasMissing)
    await git(ref.repo, ["worktree", "remove", "--force", "--force", ref.path]).catch((err) =>
      warnings.push(`git worktree remove: ${errorMessage(err)}`),
    );
  if (existsSync(ref.path)) await rm(ref.path, { recursive: true, force: true });
  if (repoThere)
    await git(ref.repo, ["worktree", "prune"]).catch((err) =>
      warnings.push(`git worktree prune: ${errorMessage(err)}`),
    );
  else warnings.push(`the repository ${ref.repo} is gone; only the worktree folder was removed`);
  // the managed folder goes too once it holds no worktree
  const parent = dirname(ref.path);
  if ((await readdir(parent).catch(() => ["?"])).length === 0) await rmdir(parent).catch(() => undefined);
  return { wasMissing, warnings };
}
