/**
 * Starting a process so that it and everything it starts can be stopped together, and stopping it.
 * POSIX: `detached` makes the child a session and process-group leader; signals go to `-pid` (the group),
 * falling back to the pid. Windows has no groups or signals: `detached` would open a console window, so
 * children stay attached (hidden), and stopping means `taskkill /PID pid /T /F`, which ends the whole tree
 * (a graceful SIGTERM does not exist for console programs; closing stdin first is the gentle step there).
 * Suspend/continue (SIGTSTP / SIGCONT) have no Windows equivalent and report `false`.
 */
import { spawn } from "node:child_process";
import { envGet } from "./env";
import { HOST_PLATFORM, isWindows, type Platform } from "./host";

/** Spawn options that put the child in its own group (POSIX) or keep it windowless (Windows). */
export function groupSpawnOptions(p: Platform = HOST_PLATFORM): { detached: boolean; windowsHide: boolean } {
  return isWindows(p) ? { detached: false, windowsHide: true } : { detached: true, windowsHide: true };
}

/** Runs a helper program and forgets it (taskkill); tests inject a recorder. */
export type Runner = (file: string, args: string[]) => void;

const runDetached: Runner = (file, args) => {
  try {
    const child = spawn(file, args, { stdio: "ignore", windowsHide: true });
    child.on("error", () => {});
    child.unref();
  } catch {
    // nothing more can be done
  }
};

const TREE_ENDING = new Set<NodeJS.Signals>(["SIGTERM", "SIGKILL", "SIGINT", "SIGQUIT", "SIGHUP"]);

export function taskkillPath(p: Platform = HOST_PLATFORM): string {
  const root = envGet(p.env, "SystemRoot", p);
  return root ? p.path.join(root, "System32", "taskkill.exe") : "taskkill.exe";
}

/**
 * Sends `signal` to the process tree led by `pid` (its group on POSIX, its descendants on Windows).
 * Returns false when nothing could be signalled (gone already, or a signal Windows cannot deliver).
 */
export function signalTree(
  pid: number,
  signal: NodeJS.Signals,
  p: Platform = HOST_PLATFORM,
  run: Runner = runDetached,
): boolean {
  if (pid <= 0) return false;
  if (isWindows(p)) {
    if (!TREE_ENDING.has(signal)) return false;
    run(taskkillPath(p), ["/PID", String(pid), "/T", "/F"]);
    return true;
  }
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false; // already gone
    }
  }
}

/** Whether `signal` can be delivered here at all (Windows: only the ones that end a process tree). */
export function canSignal(signal: NodeJS.Signals, p: Platform = HOST_PLATFORM): boolean {
  return !isWindows(p) || TREE_ENDING.has(signal);
}
