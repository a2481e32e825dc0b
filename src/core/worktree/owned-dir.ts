/**
 * The folders worktrees go in are ours, made by us: a folder found in their place is used only when it is a real
 * directory (not a symlink that would send the agent's tree elsewhere) owned by this user, and it is kept
 * private (0700). A per-worktree folder is always new (mkdir fails on anything already there).
 */
import { chmod, lstat, mkdir } from "node:fs/promises";
import { AcpThreadsError } from "../errors";

/** Creates `dir` (its parent must exist) mode 0700, or checks the one there: a directory of this user's. */
export async function ensureOwnedDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { mode: 0o700 });
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const st = await lstat(dir);
  if (st.isSymbolicLink())
    throw new AcpThreadsError("usage", `refusing the worktrees folder ${dir}: it is a symbolic link, not a folder`);
  if (!st.isDirectory()) throw new AcpThreadsError("usage", `refusing the worktrees folder ${dir}: it is not a folder`);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid)
    throw new AcpThreadsError(
      "usage",
      `refusing the worktrees folder ${dir}: it belongs to another user (uid ${st.uid})`,
    );
  if (process.platform !== "win32" && (st.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

/** Creates the new folder `dir` mode 0700; anything already at that path (a planted link) is an error. */
export async function createOwnedDir(dir: string): Promise<void> {
  await mkdir(dir, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
    throw new AcpThreadsError(
      "usage",
      err.code === "EEXIST" ? `refusing the worktree folder ${dir}: something is already there` : err.message,
    );
  });
}
