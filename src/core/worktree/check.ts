/**
 * A check command (`npm test`, a build) run in a worktree after its agent finished (#25 best of N): a shell line
 * (`/bin/sh -c`, cmd.exe on Windows, through the platform seam) in its own process group, stopped as a group
 * (SIGTERM, then SIGKILL after a grace; Windows: taskkill of the tree) on timeout or abort. Whatever the command
 * left running in its group when it exited is killed too, so a check never outlives its result, nor the process
 * that runs it (POSIX: a parent-death guard stops its group when that process dies unstopped, a SIGKILLed thread
 * host, say: acp/parent-guard.ts). The output
 * (stdout and stderr interleaved as they came) is kept as a bounded tail, secrets redacted.
 */
import { spawn } from "node:child_process";
import { guardAgainstParentDeath } from "../acp/parent-guard";
import { childEnv } from "../platform/env";
import { HOST_PLATFORM, isWindows } from "../platform/host";
import { groupSpawnOptions, signalTree } from "../platform/process-tree";
import { shellLine } from "../platform/shell";
import { redactSecrets } from "../redact";
import type { CheckResult } from "./ranking";

export { checkPassed, type CheckResult } from "./ranking";

export interface CheckOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Extra environment on top of this process's (never persisted). */
  env?: Record<string, string>;
  /** How much of the output's end is kept (default 16 KB). */
  tailBytes?: number;
  /** SIGTERM → SIGKILL grace (default 2 s). */
  killGraceMs?: number;
}

export const CHECK_TAIL_BYTES = 16 * 1024;

/** Keeps the last `max` bytes of what is pushed. */
class Tail {
  #chunks: Buffer[] = [];
  #size = 0;
  constructor(private readonly max: number) {}
  push(b: Buffer): void {
    this.#chunks.push(b);
    this.#size += b.length;
    while (this.#chunks.length > 1 && this.#size - this.#chunks[0]!.length >= this.max)
      this.#size -= this.#chunks.shift()!.length;
  }
  text(): string {
    const all = Buffer.concat(this.#chunks);
    const cut = all.length > this.max;
    // a cut in the middle of a character leaves a replacement character at the start: drop it
    const text = all.subarray(all.length - Math.min(all.length, this.max)).toString("utf8");
    return cut ? text.replace(/^\uFFFD+/, "") : text;
  }
}

export function runCheck(cwd: string, command: string, opts: CheckOptions): Promise<CheckResult> {
  const started = performance.now();
  const tail = new Tail(opts.tailBytes ?? CHECK_TAIL_BYTES);
  const grace = opts.killGraceMs ?? 2_000;
  return new Promise((resolve) => {
    const launch = shellLine(command);
    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    const child = spawn(launch.file, launch.args, {
      cwd,
      env: childEnv(HOST_PLATFORM, cwd, process.env, opts.env),
      ...groupSpawnOptions(),
      windowsVerbatimArguments: launch.verbatim,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const pid = child.pid ?? -1;
    const unguard = guardAgainstParentDeath(pid);
    const stopGroup = () => {
      if (pid <= 0 || killTimer) return;
      signalTree(pid, "SIGTERM");
      killTimer = setTimeout(() => signalTree(pid, "SIGKILL"), grace);
      killTimer.unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup();
    }, opts.timeoutMs);
    timer.unref();
    const onAbort = () => {
      aborted = true;
      stopGroup();
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout!.on("data", (b: Buffer) => tail.push(b));
    child.stderr!.on("data", (b: Buffer) => tail.push(b));
    let done = false;
    const finish = (exitCode: number | null, signal: string | null, note?: string) => {
      if (done) return;
      done = true;
      unguard();
      clearTimeout(timer);
      clearTimeout(killTimer);
      opts.signal?.removeEventListener("abort", onAbort);
      if (note) tail.push(Buffer.from(note));
      resolve({
        command,
        exitCode,
        ...(signal ? { signal } : {}),
        ...(timedOut ? { timedOut } : {}),
        ...(aborted ? { aborted } : {}),
        durationMs: Math.round(performance.now() - started),
        outputTail: redactSecrets(tail.text()),
      });
    };
    // whatever the command left behind in its group goes with it (it would hold the pipes open)
    // (POSIX: the group, by its id; never the pid alone, which is reaped and may be reused by now)
    child.once("exit", () => {
      if (pid > 0 && !isWindows())
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          // the group is empty: nothing was left behind
        }
    });
    child.once("close", (code, signal) => finish(signal ? null : code, signal));
    child.once("error", (err) => finish(null, null, `${err.message}\n`));
  });
}
