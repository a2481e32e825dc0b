/** Shared helpers for the exec tests: a temp exec dir per test and waiting on a run's output. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ExecRegistry, type ExecRegistryOptions, type ExecRun } from "../../../../src/core/exec";

export function tempDir(prefix = "acp-exec-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Resolves with the run's whole kept output once it contains `needle` (or rejects after `ms`). */
export async function waitForOutput(run: ExecRun, needle: string | RegExp, ms = 10_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const text = run.read(0, 4 * 1024 * 1024).text;
    if (typeof needle === "string" ? text.includes(needle) : needle.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(needle)}; output so far:\n${text}`);
    await sleep(20);
  }
}

/** Polls `check` until it is true (or throws after `ms`). */
export async function waitUntil(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(20);
  }
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `fn` with a registry on a fresh temp exec dir, then disposes both. */
export async function withRegistry(
  fn: (registry: ExecRegistry, dir: string) => Promise<void> | void,
  options: Partial<ExecRegistryOptions> = {},
): Promise<void> {
  const { dir, cleanup } = tempDir();
  const registry = new ExecRegistry({ execDir: dir, sweepIntervalMs: 0, ...options });
  try {
    await fn(registry, dir);
  } finally {
    registry.dispose();
    cleanup();
  }
}
