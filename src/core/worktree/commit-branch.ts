/**
 * "Commit to a branch": the worktree's changes (uncommitted ones included) committed inside the worktree and a
 * new branch made at that commit. The worktree stays detached and the user's checked-out branch is never
 * touched; the branch name is checked with `git check-ref-format --branch` and an existing branch is refused
 * (never moved). Without a git identity configured the commit is made as "ACP Threads".
 */
import { AcpThreadsError, errorMessage } from "../errors";
import type { WorktreeRef } from "../model/records";
import type { CommitResult } from "../model/worktree";
import { configOrNone, git, GitError, revParseOrNone, zsplit } from "../platform/git";

export type { CommitResult } from "../model/worktree";

const FALLBACK_IDENTITY = ["-c", "user.name=ACP Threads", "-c", "user.email=acp-threads@localhost"];

/** The branch name as git would take it, or an error saying why not. */
export async function checkBranchName(repo: string, name: string): Promise<string> {
  const trimmed = name.trim();
  if (!trimmed) throw new AcpThreadsError("usage", "a branch name is needed");
  try {
    return (await git(repo, ["check-ref-format", "--branch", trimmed])).trim();
  } catch (err) {
    // git says "not a valid branch name" with exit 128 and nothing else we can read: the name is the fault
    if (!(err instanceof GitError) || err.exitCode === null) throw err;
    throw new AcpThreadsError("usage", `'${trimmed}' is not a valid branch name (git check-ref-format)`);
  }
}

async function hasIdentity(cwd: string): Promise<boolean> {
  const email = await configOrNone(cwd, "user.email");
  const name = await configOrNone(cwd, "user.name");
  return !!email && !!name;
}

export async function commitToBranch(ref: WorktreeRef, name: string, message: string): Promise<CommitResult> {
  const branch = await checkBranchName(ref.repo, name);
  if ((await revParseOrNone(ref.repo, `refs/heads/${branch}`)) !== undefined)
    throw new AcpThreadsError("usage", `a branch '${branch}' exists already in ${ref.repo}; pick another name`);
  const cwd = ref.path;
  await git(cwd, ["add", "-A"]);
  const staged = zsplit(await git(cwd, ["diff", "--cached", "--name-only", "-z"]));
  if (staged.length) {
    const who = (await hasIdentity(cwd)) ? [] : FALLBACK_IDENTITY;
    try {
      await git(cwd, [...who, "commit", "--quiet", "--no-verify", "-m", message.trim() || "Changes from ACP Threads"]);
    } catch (err) {
      throw new AcpThreadsError("usage", `could not commit in the worktree ${cwd}: ${errorMessage(err)}`);
    }
  }
  const head = (await git(cwd, ["rev-parse", "HEAD"])).trim();
  if (head === ref.base)
    throw new AcpThreadsError("usage", "the worktree has no changes against its base: there is nothing to commit");
  await git(ref.repo, ["branch", "--end-of-options", branch, head]);
  return { branch, commit: head, files: staged.length };
}
