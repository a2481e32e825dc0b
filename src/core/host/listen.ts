/**
 * The host's socket: a stale one left by a host that died is replaced, a live one means another host serves
 * (false), anything else at the path (a file, a link, a socket of another user) is refused. Listens under umask
 * 077 and makes the socket 0600 (the folder, checked by door.ts, is 0700).
 */
import { chmodSync, lstatSync, unlinkSync } from "node:fs";
import { connect, type Server } from "node:net";
import { AcpThreadsError } from "../errors";
import { isPosix } from "../platform/host";

/** True when something accepts connections at `path`. */
export function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect(path);
    sock.once("connect", () => {
      sock.destroy();
      resolve(true);
    });
    sock.once("error", () => resolve(false));
  });
}

/** Removes a dead host's socket; false when a live host answers there. */
export async function clearStaleSocket(path: string): Promise<boolean> {
  if (!isPosix()) return !(await answers(path));
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return true; // nothing there
  }
  if (!st.isSocket() || st.uid !== process.getuid?.())
    throw new AcpThreadsError("unsafe_path", `${path} is not a socket of yours; the thread host will not replace it`);
  if (await answers(path)) return false;
  unlinkSync(path);
  return true;
}

export function listenPrivate(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const old = isPosix() ? process.umask(0o077) : 0;
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      try {
        if (isPosix()) chmodSync(path, 0o600);
        resolve();
      } catch (err) {
        reject(err as Error);
      }
    });
    if (isPosix()) process.umask(old);
  });
}
