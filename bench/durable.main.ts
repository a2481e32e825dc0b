/**
 * Durable writes bench (#24 item 4): how long this thread is held per edit-ledger append and per turn patch, the
 * old synchronous path against the new one, alternated op by op in the same run on the same disk.
 *
 * - Ledger append: old = lock (sync, fsyncs the lock file), open, write, fsync, close on this thread (what
 *   `appendLedger` did); new = `appendLedger` (async lock, write and fsync on libuv's thread pool).
 * - Turn patch: a `meta_patch` through a thread store with durability "now" (write + fsyncSync, the CLI) against
 *   "soon" (write now, fsync on the thread pool, the extension host); each waits until its patch is durable.
 *
 * - A session's records (stop 57): bursts of `--records` records (default 1,000, a streamed answer's size each)
 *   through a writer that writes each with writeSync (the CLI's, and the window's before) against one that queues
 *   them for the thread pool in order (JsonlWriter `pool`, the window's now); per record: this thread's busy time,
 *   and records/s until the burst is in the file. `--rounds` bursts per path (default 10), alternated.
 *
 * "Held" is the event loop's active time during the op (performance.eventLoopUtilization): time this thread ran
 * JavaScript or sat in a synchronous call, not time it waited for the thread pool. Prints median, p95 and max per
 * path, the ratio old / new, and the time until durable. `--n` operations per path (default 200). No asserts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { appendLedger } from "../src/core/ledger/ledger-file";
import { stampLedger, type LedgerInput } from "../src/core/ledger/records";
import { JsonlWriter } from "../src/core/store/jsonl-writer";
import { ThreadStore, type Durability } from "../src/core/store/thread-store";

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg("n", 200);

interface Sample {
  held: number;
  wall: number;
}

/** This thread's active time and the wall time of `op`, awaited. */
async function sample(op: () => unknown): Promise<Sample> {
  const elu = performance.eventLoopUtilization();
  const t0 = performance.now();
  await op();
  const wall = performance.now() - t0;
  return { held: performance.eventLoopUtilization(elu).active, wall };
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const f = (n: number) => n.toFixed(3);

function report(what: string, old: Sample[], neu: Sample[]): void {
  const held = (s: Sample[]) => s.map((x) => x.held);
  const wall = (s: Sample[]) => s.map((x) => x.wall);
  for (const [name, s] of [
    ["old (sync)", old],
    ["new (async)", neu],
  ] as const)
    console.log(
      `  ${what}, ${name}: thread held median ${f(pct(held(s), 0.5))} ms, p95 ${f(pct(held(s), 0.95))} ms, ` +
        `max ${f(Math.max(...held(s)))} ms; durable after median ${f(pct(wall(s), 0.5))} ms, p95 ${f(pct(wall(s), 0.95))} ms`,
    );
  const ratio = (p: number) => (pct(held(old), p) / Math.max(pct(held(neu), p), 1e-6)).toFixed(1);
  console.log(`  ${what}: thread held old / new: median ${ratio(0.5)}×, p95 ${ratio(0.95)}×`);
}

const review = (i: number): LedgerInput => ({
  kind: "review",
  op: `turn-${i}`,
  path: `/w/f${i}.ts`,
  hunk: null,
  action: "keep",
});

/** One burst of a session's records through `w` (a turn each `pace` records, as a session's stream gives them). */
async function burst(w: JsonlWriter, records: number, round: number): Promise<Sample> {
  return sample(async () => {
    for (let i = 0; i < records; i++) {
      w.append({ kind: "agent_message", messageId: `r${round}-${i}`, text: "streamed text ".repeat(20) });
      if (i % 20 === 19) await new Promise((r) => setImmediate(r));
    }
    await w.flushed();
  });
}

async function sessionRecords(dir: string): Promise<void> {
  const records = arg("records", 1000);
  const rounds = arg("rounds", 10);
  const sync = JsonlWriter.open(join(dir, "records-sync.jsonl"));
  const queued = await JsonlWriter.openAsync(join(dir, "records-queued.jsonl"), { pool: true });
  const out = { sync: [] as Sample[], queued: [] as Sample[] };
  for (let r = 0; r < rounds; r++) {
    out.sync.push(await burst(sync, records, r));
    out.queued.push(await burst(queued, records, r));
  }
  sync.close();
  queued.close();
  const med = (xs: number[]) => pct(xs, 0.5);
  for (const [name, s] of [
    ["writeSync each", out.sync],
    ["queued, pool", out.queued],
  ] as const) {
    const perRecordUs = (med(s.map((x) => x.held)) * 1000) / records;
    const perSecond = records / (med(s.map((x) => x.wall)) / 1000);
    console.log(
      `  session records, ${name}: thread busy ${perRecordUs.toFixed(1)} µs per record (median of ${rounds} bursts of ` +
        `${records}), ${Math.round(perSecond)} records/s into the file`,
    );
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "acp-bench-durable-"));
  try {
    console.log(`durable writes: ${N} operations per path, alternated, in ${dir}`);
    const oldLedger = join(dir, "ledger", "0196a000-0000-7000-8000-0000000000a1.jsonl");
    const newLedger = join(dir, "ledger", "0196a000-0000-7000-8000-0000000000a2.jsonl");
    const ledger = { old: [] as Sample[], neu: [] as Sample[] };
    for (let i = 0; i < N; i++) {
      ledger.old.push(
        await sample(() => {
          const w = JsonlWriter.open(oldLedger);
          try {
            w.appendValues([stampLedger(review(i))]);
          } finally {
            w.close();
          }
        }),
      );
      ledger.neu.push(await sample(() => appendLedger(newLedger, [review(i)])));
    }
    report("ledger append", ledger.old, ledger.neu);

    const handle = (durability: Durability) =>
      new ThreadStore(join(dir, durability), { durability }).create({
        agent: { id: "bench", name: "Bench", command: "/bin/false" },
        mode: "acp",
        cwd: dir,
        repoRoot: null,
        gitHead: null,
      });
    const now = handle("now");
    const soon = handle("soon");
    const patches = { old: [] as Sample[], neu: [] as Sample[] };
    for (let i = 0; i < N; i++) {
      const patch = { status: i % 2 ? ("idle" as const) : ("live" as const) };
      patches.old.push(await sample(() => now.patch(patch)));
      patches.neu.push(await sample(() => (soon.patch(patch), soon.writer.durable())));
    }
    now.close();
    soon.close();
    report("turn patch", patches.old, patches.neu);
    await sessionRecords(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
