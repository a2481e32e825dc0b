/**
 * Where the thread host listens, and what keeps its door the user's alone.
 *
 * POSIX: a Unix socket `host.sock` (0600, made under umask 077) in `<dataHome>/host/<version>/`, a folder we make
 * 0700 and check before every listen and connect: each of `host/` and `host/<version>/` must be a real directory
 * (a symbolic link, a file or a folder of another user or open to others is refused, never repaired), owned by
 * this uid. Connecting to a Unix socket needs write permission on it and search permission on its folder, so only
 * this uid (and root) can reach the host. Node gives no SO_PEERCRED and Linux gives a peer's uid by no other
 * unprivileged means (/proc/net/unix lists inodes, not owners; sock_diag has no uid for Unix sockets), so the
 * server does not read the peer's uid: the folder and the socket's modes are the check.
 * A data home whose socket path would pass the platform's limit (~104 bytes on macOS, 108 on Linux) puts the
 * socket in `<tmpdir>/acpt-<uid>-<hash of the data home>/`, made and checked the same way.
 *
 * Windows: a named pipe named after a hash of the data home and the version. Node creates it with the default
 * DACL (the creator, SYSTEM and administrators: full control; others: read), not a user-only ACL: not run here.
 */
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AcpThreadsError } from "../errors";
import { homeLayout } from "../platform/data-home";
import { HOST_PLATFORM, isPosix, type Platform } from "../platform/host";
import { VERSION } from "../version";

export interface HostPlace {
  /** The version whose host this is: each version has its own folder, socket, lock and host. */
  version: string;
  /** `<dataHome>/host/<version>`: the locks, the log, and (paths allowing) the socket. */
  dir: string;
  socket: string;
  /** Held while a client starts the host: two racing clients start one. */
  startLock: string;
  /** Held by the host for its life: a second host of the same version exits at once. */
  hostLock: string;
  /** The host's stderr. */
  log: string;
  /** The host's key (store/door-key.ts): what a client must say in its first hello. */
  key: string;
}

/**
 * Whether the host's door is the user's alone on this platform: POSIX's 0600 socket in a 0700 folder is; Windows'
 * named pipe (Node's default DACL: others may open it for reading) is not, until it gets a user-only ACL.
 */
export const doorIsUsersAlone = (p: Platform = HOST_PLATFORM): boolean => isPosix(p);

/** Where `acpThreads.host.runSessions` starts new threads: `auto` (or anything else) is the host where its door is private. */
export function runSessionsWhere(setting: unknown, p: Platform = HOST_PLATFORM): "host" | "window" {
  if (setting === "host" || setting === "window") return setting;
  return doorIsUsersAlone(p) ? "host" : "window";
}

/** Longest socket path we use (macOS: 104 bytes with the terminator). */
const MAX_SOCKET_PATH = 100;

const short = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 12);

export function hostPlace(home: string, version = VERSION): HostPlace {
  const dir = join(homeLayout(home).hostDir, version);
  const inDir = join(dir, "host.sock");
  const socket = !isPosix()
    ? `\\\\.\\pipe\\acp-threads-${short(home)}-${version}`
    : Buffer.byteLength(inDir) <= MAX_SOCKET_PATH
      ? inDir
      : join(tmpdir(), `acpt-${process.getuid?.() ?? 0}-${short(home)}`, `${version}.sock`);
  return {
    version,
    dir,
    socket,
    startLock: join(dir, "start"),
    hostLock: join(dir, "host"),
    log: join(dir, "host.log"),
    key: join(dir, "key"),
  };
}

/** Refuses `path` unless it is a directory of ours that nobody else can enter (no link, no file, no 0755). */
export function checkPrivateDir(path: string): void {
  const st = lstatSync(path);
  const what = st.isSymbolicLink() ? "a symbolic link" : !st.isDirectory() ? "not a directory" : undefined;
  const uid = process.getuid?.();
  const problem =
    what ??
    (uid !== undefined && st.uid !== uid
      ? `owned by uid ${st.uid}, not ${uid}`
      : (st.mode & 0o077) !== 0
        ? `open to others (mode ${(st.mode & 0o777).toString(8)})`
        : undefined);
  if (problem)
    throw new AcpThreadsError(
      "unsafe_path",
      `the thread host's folder ${path} is ${problem}; it must be a folder of yours with mode 0700 (remove it and try again)`,
    );
}

/** Makes (0700) and checks each folder from `below` (exclusive, made if missing, not checked) down to `dir`. */
export function ensurePrivateDir(dir: string, below: string): void {
  if (!isPosix()) return void mkdirSync(dir, { recursive: true });
  mkdirSync(below, { recursive: true });
  let at = below;
  for (const part of dir.slice(below.length).split("/").filter(Boolean)) {
    at = join(at, part);
    try {
      mkdirSync(at, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    checkPrivateDir(at);
  }
}

/** Makes and checks the host's folders: its own, and the socket's when that one is elsewhere. */
export function preparePlace(home: string, place: HostPlace): void {
  ensurePrivateDir(place.dir, home);
  if (isPosix() && !place.socket.startsWith(place.dir)) {
    const sockDir = join(place.socket, "..");
    ensurePrivateDir(sockDir, join(sockDir, ".."));
  }
}
