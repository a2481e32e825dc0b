/**
 * Exec bench: a command printing 100 MB (`--mb N`) through the registry (pipes, and a smaller run on a PTY).
 * Prints throughput and peak RSS growth next to a baseline measured in the same run: the same command read by
 * a bare `child_process` that discards its output. Goal: RSS growth ≤ 20 MB, head and tail kept. Each case
 * runs in its own node process (`--case baseline|pipes|pty`) so the RSS figures are clean.
 */
import { execFileSync, spawn } from "node:child_process";
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

type Case = "baseline" | "pipes" | "pty";

/** One measurement, in this process: bytes moved, elapsed ms, peak RSS growth, and what the registry kept. */
async function runCase(which: Case, bytes: number): Promise<Record<string, number | string>> {
  if (which === "baseline") {
    const m = await measure(() => baseline(bytes));
    return { bytes: m.result, ms: m.ms, rss: m.peakGrowth };
  }
  const dir = mkdtempSync(join(tmpdir(), "exec-bench-"));
  const registry = new ExecRegistry({ execDir: dir, sweepIntervalMs: 0 });
  try {
    const m = await measure(
      async () => registry.start({ command: "sh", args: producer(bytes), cwd: dir, pty: which === "pty" }).exited,
    );
    const head = registry.log(m.result.id, { head: 6 }).text;
    const tail = registry.log(m.result.id, { tail: 4 }).text;
    const disk = readdirSync(dir).reduce((sum, n) => sum + statSync(join(dir, n)).size, 0);
    return { bytes: m.result.bytes, ms: m.ms, rss: m.peakGrowth, head, tail, disk };
  } finally {
    registry.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each case runs in a fresh node so one case's garbage does not count against the next. */
function inChild(which: Case, mb: number): Record<string, number | string> {
  const out = execFileSync(process.execPath, ["--expose-gc", __filename, "--case", which, "--mb", String(mb)], {
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").pop()!) as Record<string, number | string>;
}

export async function benchExec(opts: { mb: number; ptyMb: number }): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const print = (k: string, v: string) => {
    figures[k] = v;
    console.log(`${k.padEnd(40)} ${v}`);
  };
  const rate = (r: Record<string, number | string>) => Number(r.bytes) / MiB / (Number(r.ms) / 1000);
  const rss = (r: Record<string, number | string>) => `${fmt(Number(r.rss) / MiB)} MB`;
  const base = inChild("baseline", opts.mb);
  print(`baseline: bare child_process, ${opts.mb} MB`, `${fmt(rate(base))} MB/s, peak RSS +${rss(base)}`);
  const piped = inChild("pipes", opts.mb);
  print(`registry, pipes, ${opts.mb} MB`, `${fmt(rate(piped))} MB/s (${fmt(rate(piped) / rate(base), 2)}x baseline)`);
  print("registry peak RSS growth", `+${rss(piped)} (goal <= 20 MB; baseline +${rss(base)})`);
  print(
    "head and tail kept",
    `${JSON.stringify(piped.head)} … ${JSON.stringify(piped.tail)}, total ${piped.bytes} bytes`,
  );
  print("on-disk log for the run", `${fmt(Number(piped.disk) / 1024)} KiB`);
  const pty = inChild("pty", opts.ptyMb);
  print(`registry, PTY, ${opts.ptyMb} MB`, `${fmt(rate(pty))} MB/s, peak RSS +${rss(pty)}`);
  return figures;
}

if (require.main === module) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i === -1 ? undefined : process.argv[i + 1];
  };
  const which = arg("case") as Case | undefined;
  const done = which
    ? runCase(which, Number(arg("mb") ?? 100) * MiB).then((r) => console.log(JSON.stringify(r)))
    : benchExec({ mb: Number(arg("mb") ?? 100), ptyMb: Number(arg("pty-mb") ?? 10) });
  done.catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
