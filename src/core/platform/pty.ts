/**
 * node-pty, when this install has it. The platform VSIXs carry the native module for their target; the
 * universal VSIX (and any machine where it fails to load or to start a terminal, e.g. a macOS prebuild whose
 * spawn-helper lost its execute bit) has none. Then every PTY user falls back to plain pipes, and the first
 * fallback in a process fires one notice that says why and what it costs (`onPtyFallback`: the extension shows
 * it once, the CLI prints it once). `ACP_THREADS_NO_PTY=1` forces pipes (and the notice) on purpose.
 */
import { chmodSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { toDisposable, type Disposable } from "../lifecycle";
import { HOST_PLATFORM, type Platform } from "./host";
import type { PtyHandle, PtySpawnOptions } from "./spawner-pty";
import { spawnPtyKeepingTail } from "./pty-tail";
import { slot } from "../util/slot";

export type PtyModule = typeof import("node-pty");
export const NO_PTY_ENV = "ACP_THREADS_NO_PTY";

export interface PtyFallbackNotice {
  /** Why no PTY: the load or start error, shortened. */
  reason: string;
  /** The text to show the user. */
  message: string;
}

let loader: () => PtyModule = defaultLoader;
let state: { pty: PtyModule | null; reason?: string } | undefined;
let notice: PtyFallbackNotice | undefined;
const listeners = new Set<(n: PtyFallbackNotice) => void>();

/**
 * macOS runs every PTY through node-pty's `spawn-helper`; node-pty 1.1's prebuilds ship it without the execute
 * bit (microsoft/node-pty#850), which makes every spawn fail with "posix_spawnp failed". Restore the bit.
 */
export function ensureSpawnHelperExecutable(ptyDir: string | undefined, p: Platform = HOST_PLATFORM): string[] {
  if (p.os !== "darwin" || !ptyDir) return [];
  const fixed: string[] = [];
  for (const sub of ["build/Release", `prebuilds/darwin-${p.arch}`]) {
    const helper = join(ptyDir, sub, "spawn-helper");
    try {
      const mode = statSync(helper).mode;
      if ((mode & 0o111) !== 0o111) {
        chmodSync(helper, (mode & 0o777) | 0o755);
        fixed.push(helper);
      }
    } catch {
      // not in this install
    }
  }
  return fixed;
}

function defaultLoader(): PtyModule {
  let dir: string | undefined;
  try {
    dir = dirname(require.resolve("node-pty/package.json"));
  } catch {
    // node-pty is not installed at all: the require below says so
  }
  ensureSpawnHelperExecutable(dir);
  return require("node-pty") as PtyModule;
}

const shorten = (err: unknown) =>
  String((err as Error)?.message ?? err)
    .split("\n")[0]!
    .slice(0, 300);

/** node-pty, or null when it is unavailable here (the reason is in the fallback notice). */
export function loadPty(): PtyModule | null {
  if (!state) {
    if (process.env[NO_PTY_ENV] === "1") state = { pty: null, reason: `${NO_PTY_ENV}=1 is set` };
    else {
      try {
        state = { pty: loader() };
      } catch (err) {
        state = { pty: null, reason: shorten(err) };
      }
    }
  }
  return state.pty;
}

function fallback(): void {
  if (notice) return;
  const where = `${HOST_PLATFORM.os}-${HOST_PLATFORM.arch}`;
  const reason = state?.reason ?? "unknown";
  notice = {
    reason,
    message:
      `ACP Threads has no pseudo-terminal on this machine (${where}: ${reason}). Exec runs and agent terminals ` +
      "run on plain pipes instead: programs see no terminal, so no colours, no resizing and no interactive " +
      "prompts. The ACP Threads package built for your platform (linux-x64, darwin-x64, darwin-arm64, " +
      "win32-x64, win32-arm64) includes terminals.",
  };
  for (const l of listeners) l(notice);
}

/**
 * Runs `start` with node-pty; when node-pty is missing or `start` throws (the PTY cannot be created here),
 * records why, fires the one-time notice and returns undefined so the caller uses pipes.
 */
export function withPty<T>(start: (pty: PtyModule) => T): T | undefined {
  const pty = loadPty();
  if (pty) {
    try {
      return start(pty);
    } catch (err) {
      state = { pty: null, reason: `a terminal could not be started: ${shorten(err)}` };
    }
  }
  fallback();
  return undefined;
}

/** Starts a pseudo-terminal in another process (the extension host's spawner, #24); undefined when it cannot. */
export type PtySpawner = (
  file: string,
  args: string[],
  opts: PtySpawnOptions,
  nodePty: PtyModule,
  modulePath: string,
) => PtyHandle | undefined;
const spawners = slot<PtySpawner | undefined>(undefined);

/** Installs where terminals are started (the extension host's spawner); returns how to put the previous back. */
export const setPtySpawner = (next: PtySpawner): (() => void) => spawners.set(next);

function modulePath(): string | undefined {
  try {
    return dirname(require.resolve("node-pty/package.json"));
  } catch {
    return undefined;
  }
}

/**
 * `withPty` for callers that take a pid known later (`started`): through the installed spawner when there is one
 * (no fork of this process), else node-pty here.
 */
export function withPtyHandle<T>(
  file: string,
  args: string | string[],
  opts: PtySpawnOptions,
  use: (term: PtyHandle) => T,
): T | undefined {
  return withPty((pty) => {
    const spawner = spawners.get();
    const path = spawner && Array.isArray(args) && modulePath();
    const remote = path ? spawner!(file, args as string[], opts, pty, path) : undefined;
    if (remote) return use(remote);
    const term = spawnPtyKeepingTail(pty, file, args, opts);
    return use(Object.assign(term, { started: Promise.resolve<number | undefined>(term.pid) }));
  });
}

/** Called once with the notice when the first PTY user falls back to pipes (at once if that already happened). */
export function onPtyFallback(listener: (n: PtyFallbackNotice) => void): Disposable {
  if (notice) listener(notice);
  listeners.add(listener);
  return toDisposable(() => listeners.delete(listener));
}

/** Tests: forget what was loaded and noticed; optionally load node-pty through `load` from now on. */
export function resetPtyForTests(load: () => PtyModule = defaultLoader): void {
  loader = load;
  state = undefined;
  notice = undefined;
}
