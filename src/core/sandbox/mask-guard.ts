/**
 * Linux: the denied paths that keep a mount of their own on the real directory entry (a denied folder, a denied
 * file in a folder the agent may write, such as a project's `.env`; see hidden-folders.ts) lose that mount inside
 * a running sandbox when they are replaced outside it (a tmp → rename save, an unlink and a new file, a folder
 * moved away): the kernel detaches it, or it follows the moved entry. No mount can pin the name in a folder the
 * agent writes, so this guard watches each one's identity (device and inode) from outside, and once one changes
 * the plan is lost: every process started in it is killed at once, with a notice saying why, and it starts
 * nothing more. The guard acts after the replacement: a sandboxed process reading the path in that instant can
 * still read the new file (the window is inotify's delivery and one kill).
 */
import { watch, type FSWatcher } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import { signalTree } from "../platform/process-tree";
import { background } from "../util/unexpected";

const POLL_MS = 250;

export interface MaskGuard {
  /** The notice once a mask was lost, else undefined. */
  lost(): string | undefined;
  /** `fn` once when a mask is lost (at once when one already was); the returned function unsubscribes. */
  onLost(fn: (notice: string) => void): () => void;
  close(): void;
}

export function maskLostNotice(path: string): string {
  return `the sandbox's mask over ${path} was lost: ${path} was replaced outside the sandbox; the agent was stopped`;
}

type Identity = { dev: number; ino: number } | undefined;

async function identity(path: string): Promise<Identity> {
  try {
    const s = await stat(path);
    return { dev: s.dev, ino: s.ino };
  } catch {
    return undefined;
  }
}

/** Watches `paths` (each existing now) from here on; undefined when there is nothing to watch. */
export async function guardMasks(paths: readonly string[]): Promise<MaskGuard | undefined> {
  if (!paths.length) return undefined;
  const known = new Map<string, Identity>();
  for (const path of paths) known.set(path, await identity(path));
  let notice: string | undefined;
  const listeners = new Set<(notice: string) => void>();
  const closers: Array<() => void> = [];
  const check = async (path: string) => {
    if (notice) return;
    const was = known.get(path);
    const now = await identity(path);
    if (notice || (now && was && now.dev === was.dev && now.ino === was.ino)) return;
    notice = maskLostNotice(path);
    for (const fn of [...listeners]) fn(notice);
    listeners.clear();
  };
  const checkAll = (among: readonly string[]) => {
    for (const path of among) background(check(path), "checking a sandbox mask");
  };
  const byFolder = new Map<string, string[]>();
  for (const path of paths) byFolder.set(dirname(path), [...(byFolder.get(dirname(path)) ?? []), path]);
  for (const [folder, among] of byFolder) {
    let watcher: FSWatcher | undefined;
    try {
      watcher = watch(folder, { persistent: false }, () => checkAll(among));
      watcher.on("error", () => undefined);
      closers.push(() => watcher!.close());
    } catch {
      // no inotify watch to be had (the limit): poll instead, never unguarded
      const timer = setInterval(() => checkAll(among), POLL_MS);
      timer.unref();
      closers.push(() => clearInterval(timer));
    }
  }
  checkAll(paths); // replaced between the first look and the watch
  return {
    lost: () => notice,
    onLost(fn) {
      if (notice) {
        fn(notice);
        return () => undefined;
      }
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    close() {
      for (const close of closers.splice(0)) close();
      listeners.clear();
    },
  };
}

/**
 * Kills the process group of `pid` (a sandboxed launch of the plan `guard` guards) at once when a mask is lost,
 * until `exited`; `note` hears the notice first (the agent's stderr tail, a run's output).
 */
export function stopWhenMaskLost(
  guard: MaskGuard | undefined,
  pid: number | Promise<number | undefined>,
  exited: Promise<unknown>,
  note?: (notice: string) => void,
): void {
  if (!guard) return;
  background(
    Promise.resolve(pid).then((id) => {
      if (id === undefined || id <= 0) return;
      const off = guard.onLost((notice) => {
        note?.(notice);
        signalTree(id, "SIGKILL");
      });
      return exited.then(off, off);
    }),
    "guarding a sandboxed process's masks",
  );
}
