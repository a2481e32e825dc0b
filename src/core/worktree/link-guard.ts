/**
 * Symbolic links never carry an apply out of its two trees (#33 finding 4). A repository-relative file is safe
 * to apply when:
 * - in the worktree, it is not itself a link (a link would be read as the file it points to: `leak.txt ->
 *   ~/secret` would bring the secret home and into the ledger's blob store), and its folder's real path is
 *   inside the worktree (a folder replaced by a link to `/etc` would be read through);
 * - in the workspace, its real path (or, when it does not exist yet, its nearest existing folder's) is inside the
 *   workspace: `out -> /elsewhere` would have `out/x` written elsewhere, and `config -> ~/.ssh/config` read into
 *   the ledger as the file's "before".
 * Links that stay inside the worktree are not applied as links either: the ledger records file contents, not
 * links, so they are refused like the others and named (the user copies them by hand).
 */
import { realpath } from "node:fs/promises";
import { dirname, join } from "node:path";
import { isSymlink, realInside } from "../util/real-inside";

/**
 * Why `rel` cannot be applied from `worktree` into `repo` without going through a link that leaves them, or
 * undefined when it can. `roots`: the two trees' real paths.
 */
export async function linkProblem(
  roots: { worktree: string; repo: string },
  worktree: string,
  repo: string,
  rel: string,
): Promise<string | undefined> {
  const source = join(worktree, rel);
  if (await isSymlink(source))
    return `${rel} is a symbolic link in the worktree (it would be applied as the file it points to)`;
  if (!(await realInside(roots.worktree, dirname(source))))
    return `${rel} lies behind a symbolic link in the worktree that leads out of it`;
  if (!(await realInside(roots.repo, join(repo, rel))))
    return `${rel} in the workspace goes through a symbolic link that leads out of the workspace`;
  return undefined;
}

/** `linkProblem` for each of `rels` (repository-relative): rel → why it is refused; safe ones are left out. */
export async function linkProblems(
  worktree: string,
  repo: string,
  rels: readonly string[],
): Promise<Map<string, string>> {
  const roots = { worktree: await realpath(worktree), repo: await realpath(repo) };
  const out = new Map<string, string>();
  await Promise.all(
    rels.map(async (rel) => {
      const why = await linkProblem(roots, worktree, repo, rel);
      if (why) out.set(rel, why);
    }),
  );
  return out;
}
