/** A folder of our own in a shared place (the temp folder): for the egress proxy's socket and the seccomp filter. */
import { lstat, mkdir } from "node:fs/promises";
import { AcpThreadsError } from "../errors";

/**
 * `path` made if missing, then checked: a real folder (not a link), ours, nobody else's to read or enter (a
 * folder planted by another user would let them swap what we put in it). `what` names the user of it in the error.
 */
export async function privateFolder(path: string, what: string): Promise<string> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  const s = await lstat(path);
  const mine = typeof process.getuid !== "function" || s.uid === process.getuid();
  if (!s.isDirectory() || !mine || (s.mode & 0o077) !== 0) {
    throw new AcpThreadsError(
      "sandbox_unavailable",
      `cannot start ${what}: ${path} must be a folder of this user's with mode 0700`,
    );
  }
  return path;
}
