/**
 * Exec bench: a command printing 100 MB (`--mb N`) through the registry (pipes, and a smaller run on a PTY).
 * Prints throughput and peak RSS growth next to a baseline measured in the same run: the same command read by
 * a bare `child_process` that discards its output. Goal: RSS growth ≤ 20 MB, head and tail kept.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExecRegistry } from "../src/core/exec";

const MiB = 1024 * 1024;
const fmt = (n: number, digits = 1) => n.toFixed(digits);

function producer(bytes: number): string[] {
  return ["-c", `echo START; head -c ${bytes} /dev/zero | tr '\\0' 'x'; echo; echo END`];
}

/** Samples RSS every 10 ms while `fn` runs; returns its result, the elapsed time and the peak growth. */
async function measure<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number; peakGrowth: number }> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const t0 = performance.now();
  try {
    const result = await fn();
    return { result, ms: performance.now() - t0, peakGrowth: Math.max(0, peak - before) };
  } finally {
    clearInterval(sampler);
  }
}

function baseline(bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", producer(bytes), { stdio: ["ignore", "pipe", "inherit"] });
    let total = 0;
    child.stdout.on("data", (d: Buffer) => (total += d.length));
    child.on("error", reject);
    child.on("close", () => resolve(total));
  });
}

export async function benchExec(opts: { mb: number; ptyMb: number }): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const print = (k: string, v: string) => {
    figures[k] = v;
    console.log(`${k.padEnd(40)} ${v}`);
  };
  const dir = mkdtempSync(join(tmpdir(), "exec-bench-"));
  const registry = new ExecRegistry({ execDir: dir, sweepIntervalMs: 0 });
  try {
    const bytes = opts.mb * MiB;
    const base = await measure(() => baseline(bytes));
    print("baseline (bare child_process, discard)", `${fmt(base.result / MiB / (base.ms / 1000))} MB/s, RSS +${fmt(base.peakGrowth / MiB)} MB`);

    const piped = await measure(async () => {
      const run = registry.start({ command: "sh", args: producer(bytes), cwd: dir });
      return run.exited;
    });
    const info = piped.result;
    const rate = info.bytes / MiB / (piped.ms / 1000);
    print(`registry, pipes, ${opts.mb} MB`, `${fmt(rate)} MB/s (${fmt(rate / (base.result / MiB / (base.ms / 1000)), 2)}x baseline)`);
    print("registry peak RSS growth", `${fmt(piped.peakGrowth / MiB)} MB (goal <= 20 MB)`);
    const head = registry.log(info.id, { head: 6 }).text;
    const tail = registry.log(info.id, { tail: 4 }).text;
    print("head and tail kept", `${JSON.stringify(head)} … ${JSON.stringify(tail)}, total ${info.bytes} bytes`);
    const disk = readdirSync(dir).reduce((sum, n) => sum + statSync(join(dir, n)).size, 0);
    print("on-disk log for the run", `${fmt(disk / 1024)} KiB`);

    const ptyBytes = opts.ptyMb * MiB;
    const pty = await measure(async () => {
      const run = registry.start({ command: "sh", args: producer(ptyBytes), cwd: dir, pty: true });
      return run.exited;
    });
    print(`registry, PTY, ${opts.ptyMb} MB`, `${fmt(pty.result.bytes / MiB / (pty.ms / 1000))} MB/s, RSS +${fmt(pty.peakGrowth / MiB)} MB`);
    return figures;
  } finally {
    registry.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(`--${name}`);
    return i === -1 ? fallback : Number(process.argv[i + 1]);
  };
  benchExec({ mb: arg("mb", 100), ptyMb: arg("pty-mb", 10) }).catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
