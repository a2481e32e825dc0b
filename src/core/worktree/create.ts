/**
 * A new worktree for a session: `git worktree add --detach <dir> <base>` into the folder we manage beside the
 * repository (layout.ts; the folders made by us, private, never a link found there: owned-dir.ts), the ignored files `.worktreeinclude` names copied in, and the base commit recorded.
 * The session's cwd is the same folder inside the worktree as the one asked for inside the repository.
 */
import { realpath, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { AcpThreadsError, errorMessage } from "../errors";
import type { WorktreeRef } from "../model/records";
import { git, GitError, repoTop, revParseOrNone, zsplit } from "../platform/git";
import { copyIncluded } from "./include";
import { newWorktreeId, worktreesDirOf } from "./layout";
import { createOwnedDir, ensureOwnedDir } from "./owned-dir";

export interface CreatedWorktree {
  ref: WorktreeRef;
  /** Where the session runs: `cwd`'s place inside the worktree. */
  cwd: string;
  /** `.worktreeinclude` entries copied in. */
  copied: string[];
  /** Things the user should know (uncommitted changes left behind, skipped include patterns). */
  warnings: string[];
}

/** `details.reason` of the error for a folder that is not in a git repository (callers fall back to a plain session). */
export const NOT_A_REPOSITORY = "not_a_repository";

export function isNotARepository(err: unknown): boolean {
  return err instanceof AcpThreadsError && err.details?.reason === NOT_A_REPOSITORY;
}

export async function createWorktree(cwd: string, opts: { base?: string } = {}): Promise<CreatedWorktree> {
  const real = await realpath(cwd).catch(() => {
    throw new AcpThreadsError("not_found", `the folder ${cwd} does not exist`);
  });
  const topOut = await repoTop(real);
  if (!topOut)
    throw new AcpThreadsError("usage", `${cwd} is not in a git repository, so it cannot have a worktree`, {
      reason: NOT_A_REPOSITORY,
    });
  const repo = await realpath(topOut);
  const base = await resolveBase(repo, opts.base ?? "HEAD");
  const warnings: string[] = [];
  const dirty = zsplit(await git(repo, ["status", "--porcelain", "-z", "--untracked-files=normal"])).filter((e) =>
    /^[ MTADRCU?]{2} /.test(e),
  ).length; // (a rename's original path is a field of its own, without a status)
  if (dirty)
    warnings.push(
      `the workspace has ${dirty} uncommitted change${dirty === 1 ? "" : "s"}; the worktree starts from commit ${base.slice(0, 10)} without ${dirty === 1 ? "it" : "them"}`,
    );
  const parent = worktreesDirOf(repo);
  await ensureOwnedDir(parent);
  const path = join(parent, newWorktreeId());
  await createOwnedDir(path);
  try {
    await git(repo, ["worktree", "add", "--detach", "--quiet", path, base]);
  } catch (err) {
    await rm(path, { recursive: true, force: true });
    throw new AcpThreadsError("usage", `could not create a worktree of ${repo}: ${errorMessage(err)}`);
  }
  const included = await copyIncluded(repo, path);
  warnings.push(...included.warnings);
  return {
    ref: { path, repo, base, createdAt: new Date().toISOString() },
    cwd: join(path, relative(repo, real)),
    copied: included.copied,
    warnings,
  };
}

async function resolveBase(repo: string, base: string): Promise<string> {
  // a name git refuses outright (exit 128: "bad revision") is no commit either; git not running is a failure
  const commit = await revParseOrNone(repo, `${base}^{commit}`).catch((err: unknown) => {
    if (err instanceof GitError && err.exitCode !== null) return undefined;
    throw err;
  });
  if (commit !== undefined) return commit;
  const none = base === "HEAD" && (await revParseOrNone(repo, "HEAD")) === undefined;
  throw new AcpThreadsError(
    "usage",
    none
      ? `the repository ${repo} has no commit yet; commit once before starting a worktree session`
      : `'${base}' is not a commit of ${repo}`,
  );
}
