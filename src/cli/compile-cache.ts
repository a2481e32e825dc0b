/**
 * Node 22.1+ keeps V8's compiled code of the CLI's bundles between calls when asked (module.enableCompileCache): a
 * command's bundle (dist/cli/*.js) and node-sqlite3-wasm's JS are then read back instead of compiled again (Node 24:
 * 6 ms of CPU less for a first recall call, 20 ms for a command of the shared bundle). Node 20 has no such API:
 * nothing happens there. NODE_COMPILE_CACHE and NODE_DISABLE_COMPILE_CACHE keep their meaning.
 *
 * V8 runs what it reads back, so an entry someone else could plant would be code run by the user's next call: the
 * folder is the data home's (never the shared os.tmpdir() default), made 0700 here, and used only when it is a real
 * folder (not a link) of this user that nobody else can write.
 */
import { lstatSync, mkdirSync } from "node:fs";
import { homeLayout, resolveHome } from "../core/store/paths";

type Enable = (dir: string) => { status: number };
const ENABLED = 1; // module.constants.compileCacheStatus.ENABLED

/** Whether `dir` is a folder (not a link) of this user that no other user can write. */
export function privateFolder(dir: string): boolean {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return false;
  if (process.platform === "win32") return true; // no POSIX modes; the profile folder's ACL decides
  return st.uid === process.getuid?.() && (st.mode & 0o022) === 0;
}

/** Turns the cache on for this process; returns its folder, or undefined when it stays off. */
export function enableCompileCache(env: NodeJS.ProcessEnv, enable?: Enable): string | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  enable ??= (require("node:module") as { enableCompileCache?: Enable }).enableCompileCache;
  if (!enable || env.NODE_COMPILE_CACHE || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const dir = homeLayout(resolveHome(env)).compileCacheDir;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!privateFolder(dir)) return undefined;
    return enable(dir).status === ENABLED ? dir : undefined;
  } catch {
    return undefined; // a read-only or hidden data home (a sandboxed agent's call): compile as before
  }
}
