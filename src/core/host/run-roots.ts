/**
 * The folders a run may add to its session (`DetachedRun.roots`, #35): only ones the asking client said are its
 * own (`hello`'s `serves.roots`: an editor's workspace folders). Roots widen what the agent reaches (its path
 * guard, `additionalDirectories`, the sandbox's writable folders), so a run naming any other folder is refused
 * before its agent starts, as the window's own policy never gives a session a folder outside its workspace.
 *
 * A worktree the client made (`DetachedRun.preparedWorktree`, Best of N's candidates) is the session's whole
 * world, so it is held to the same rule: it must be a worktree the host would have made itself for a repository
 * of the client's folders — in that repository's worktrees folder (worktree/layout.ts), known to git as one of
 * its worktrees, every path named as its real path (no link leading out, nothing relative, no `..`).
 */
import { realpath } from "node:fs/promises";
import { isAbsolute, normalize } from "node:path";
import { AcpThreadsError } from "../errors";
import { isInside } from "../platform/paths";
import { git, repoTop, zsplit } from "../platform/git";
import { isManagedPath } from "../worktree/layout";
import { covers, offeredGuard } from "./editor-serve";
import type { DetachedRun } from "./protocol";
import type { ServeOffer } from "./protocol-serve";

export async function assertRootsOffered(roots: unknown, offer: ServeOffer | undefined): Promise<void> {
  if (roots === undefined) return;
  const named = Array.isArray(roots) ? roots : [roots];
  if (!named.length) return;
  const guard = offeredGuard(offer);
  const ok = guard && named.every((r) => typeof r === "string") && (await covers(guard, ...(named as string[])));
  if (!ok)
    throw new AcpThreadsError(
      "path_outside_workspace",
      `the run's folders (${named.map(String).join(", ")}) are not all inside this client's folders (${offer?.roots?.join(", ") || "none said"}): refused`,
    );
}

const realOrNone = (p: string) => realpath(p).catch(() => undefined);

/** An absolute path with nothing to resolve: no `.` or `..` segment, no doubled separator. */
const plainAbsolute = (p: unknown): p is string => typeof p === "string" && isAbsolute(p) && normalize(p) === p;

/** Why the prepared worktree is not one the host takes; undefined: it is. */
async function worktreeRefusal(
  run: Pick<DetachedRun, "preparedWorktree" | "thread" | "worktree">,
  offer: ServeOffer | undefined,
): Promise<string | undefined> {
  const wt = run.preparedWorktree as { ref?: { path?: unknown; repo?: unknown }; cwd?: unknown } | undefined;
  if (run.thread || run.worktree) return "a prepared worktree is for a new thread of its own";
  const [path, repo, cwd] = [wt?.ref?.path, wt?.ref?.repo, wt?.cwd];
  if (!plainAbsolute(path) || !plainAbsolute(repo) || !plainAbsolute(cwd))
    return "its paths must be absolute, with no `.` or `..` in them";
  if ((await realOrNone(repo)) !== repo || (await realOrNone(path)) !== path)
    return "its paths must be real paths (no link on the way)";
  const guard = offeredGuard(offer);
  if (!guard || !(await repositoryOfFolders(repo, guard.roots)))
    return `${repo} is not a repository of this client's folders (${offer?.roots?.join(", ") || "none said"})`;
  if (!isManagedPath(repo, path)) return `it is not in the worktrees folder of ${repo}`;
  // the main working tree first, then the others (a subfolder or a linked worktree named as `repo` lists another)
  const listed = zsplit(await git(repo, ["worktree", "list", "--porcelain", "-z"]).catch(() => ""));
  if (listed[0] !== `worktree ${repo}`) return `${repo} is not the top of a git repository`;
  if (!listed.includes(`worktree ${path}`)) return `git does not list it as a worktree of ${repo}`;
  const real = await realOrNone(cwd);
  if (!real || !isInside(path, cwd) || !isInside(path, real)) return `its folder ${cwd} is not inside it`;
  return undefined;
}

/**
 * The repository `repo` (a real path) is in one of the client's folders, or holds one of them (a window on a
 * repository's subfolder); the editor asks it before it sends a run in a worktree of `repo`.
 */
export async function repositoryOfFolders(repo: string, roots: readonly string[]): Promise<boolean> {
  for (const root of roots) {
    const real = await realOrNone(root);
    if (!real) continue;
    if (isInside(real, repo)) return true;
    if (isInside(repo, real) && (await realOrNone((await repoTop(real).catch(() => undefined)) ?? "")) === repo)
      return true;
  }
  return false;
}

/**
 * Refuses (before any agent starts) a run whose prepared worktree is not one the host would have made for a
 * repository of the asking client's folders.
 */
export async function assertWorktreeOffered(
  run: Pick<DetachedRun, "preparedWorktree" | "thread" | "worktree">,
  offer: ServeOffer | undefined,
): Promise<void> {
  if (run.preparedWorktree === undefined) return;
  const why = await worktreeRefusal(run, offer);
  if (why)
    throw new AcpThreadsError(
      "path_outside_workspace",
      `the run's worktree (${String(run.preparedWorktree?.ref?.path)}) is refused: ${why}`,
    );
}
