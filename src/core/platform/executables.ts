/**
 * Finding a program like a shell would, on every platform: a name is looked up on PATH only; a path is taken as
 * given (relative to cwd). A name is never looked up in a `node_modules/.bin` above cwd (as npx does): whoever
 * can write a shared parent folder would choose the program `--agent claude` starts. POSIX wants an executable
 * regular file. Windows looks for the name with each PATHEXT extension (`codex-acp` → `codex-acp.cmd`, the npm
 * shim) and never picks the extension-less sh script npm puts next to it for Git Bash. `findExecutableAsync` checks the
 * same candidates in the same order on the thread pool (the extension host's thread never waits on the disk).
 */
import { accessSync, constants, statSync } from "node:fs";
import { access, stat } from "node:fs/promises";
import { envGet } from "./env";
import { HOST_PLATFORM, isWindows, type Platform } from "./host";

export interface FindExecutableOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  platform?: Platform;
  /** Whether `path` is a runnable file (tests inject one for another platform's paths). */
  isRunnable?: (path: string) => boolean;
}

export interface FindExecutableAsyncOptions extends Omit<FindExecutableOptions, "isRunnable"> {
  isRunnable?: (path: string) => Promise<boolean> | boolean;
}

const DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD";

function runnableOnHost(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (!isWindows()) accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function runnableOnHostAsync(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    if (!isWindows()) await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** True when `command` names a path rather than a program on PATH. */
export function isPathLike(command: string, p: Platform = HOST_PLATFORM): boolean {
  return command.includes("/") || (isWindows(p) && (command.includes("\\") || /^[A-Za-z]:/.test(command)));
}

/** The names to try for `base` (a path without a known extension): Windows adds each PATHEXT extension. */
function variants(base: string, env: NodeJS.ProcessEnv, p: Platform): string[] {
  if (!isWindows(p)) return [base];
  const exts = (envGet(env, "PATHEXT", p) || DEFAULT_PATHEXT)
    .split(";")
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  const lower = base.toLowerCase();
  if (exts.some((e) => lower.endsWith(e))) return [base];
  return exts.map((e) => base + e);
}

/** The paths that may be the program, in the order a shell tries them: the first runnable one is it. */
function executableCandidates(command: string, opts: Omit<FindExecutableOptions, "isRunnable">): string[] {
  const p = opts.platform ?? HOST_PLATFORM;
  const P = p.path;
  const env = opts.env ?? p.env;
  if (isPathLike(command, p)) return variants(P.resolve(opts.cwd, command), env, p);
  return (envGet(env, "PATH", p) ?? "")
    .split(P.delimiter)
    .filter(Boolean)
    .flatMap((dir) => variants(P.join(dir.replace(/^"(.*)"$/, "$1"), command), env, p));
}

/** Absolute path of the program, or null when there is none. */
export function findExecutable(command: string, opts: FindExecutableOptions): string | null {
  return executableCandidates(command, opts).find(opts.isRunnable ?? runnableOnHost) ?? null;
}

/** `findExecutable` without blocking the thread: each candidate is checked on the thread pool, one after another. */
export async function findExecutableAsync(command: string, opts: FindExecutableAsyncOptions): Promise<string | null> {
  const ok = opts.isRunnable ?? runnableOnHostAsync;
  for (const path of executableCandidates(command, opts)) if (await ok(path)) return path;
  return null;
}
