/**
 * Inline review's placement on a big file (`npm run bench -- review`): a 20,000-line file whose reviewed version has
 * 1, 50 and 500 pending hunks, placed on the document after a one-line edit (what a keystroke asks). Now: one diff
 * of the version against the document, every hunk mapped through it (`mapRanges`); baseline, measured in the same
 * run: the mapping before (bench/baselines/map-range.ts), one whole-document diff per hunk. Then what the user
 * feels: `review.placed` through the window's engine over a real ledger (500 hunks, warm: the thread was read), a
 * new one-line edit before each placement.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mapRangeBefore } from "./baselines/map-range";
import { localEngine } from "../src/core/engine/local";
import { EditLedger } from "../src/core/ledger/edit-ledger";
import { hunksOf, mapRanges } from "../src/core/ledger/hunks";
import { ThreadStore } from "../src/core/store/thread-store";

const LINES = 20_000;
const THREAD = "0196a000-0000-7000-8000-0000000000c1";

/** A lockfile-like file: 20,000 short lines, under the ledger's 1 MiB a version is kept up to. */
const base = Array.from({ length: LINES }, (_, i) => `    "package-${i}": "^1.${i % 97}.0",\n`);
/** The version the agent left: `hunks` lines changed, spread evenly over the file. */
const agentVersion = (hunks: number) => {
  const step = Math.floor(LINES / hunks);
  return base.map((l, i) => (i % step === step >> 1 ? `    "package-${i}": "^2.0.0",\n` : l));
};
/** The document now: the agent's version with one line the user typed at `at`. */
const typed = (after: string[], at: number, n: number) =>
  [...after.slice(0, at), `// typed ${n}\n`, ...after.slice(at)].join("");

/** Medians of `runs` timings of each function, run in turns (a load change on the machine hits both alike). */
function medians(fns: (() => unknown)[], runs: number): number[] {
  for (const fn of fns) fn(); // warm-up
  const samples = fns.map(() => [] as number[]);
  for (let r = 0; r < runs; r++)
    fns.forEach((fn, i) => {
      const t0 = performance.now();
      fn();
      samples[i]!.push(performance.now() - t0);
    });
  return samples.map((xs) => xs.sort((a, b) => a - b)[Math.floor(runs / 2)]!);
}

const fmt = (ms: number) => ms.toFixed(ms < 10 ? 2 : 0).padStart(8);

console.log(`inline review: placing a ${LINES.toLocaleString("en")}-line file's pending hunks after a one-line edit`);
let failed = false;
for (const count of [1, 50, 500]) {
  const afterLines = agentVersion(count);
  const after = afterLines.join("");
  const ranges = hunksOf(base.join(""), after).map((h) => ({ start: h.afterStart, end: h.afterEnd }));
  const doc = typed(afterLines, LINES / 2 + 1, 0);
  const now = () => mapRanges(hunksOf(after, doc), ranges);
  const before = () => ranges.map((r) => mapRangeBefore(after, doc, r.start, r.end));
  const same = JSON.stringify(now()) === JSON.stringify(before());
  if (!same || ranges.length !== count) failed = true;
  const [n, b] = medians([now, before], count >= 500 ? 3 : 9);
  console.log(
    `  ${String(count).padStart(3)} hunk(s): ${fmt(n)} ms one diff (mapRanges)   baseline ${fmt(b)} ms a diff per hunk   ratio ${(n / b).toFixed(3)}${same ? "" : "  ANSWERS DIFFER"}`,
  );
}

async function feltByUser(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "acp-bench-review-"));
  const ws = join(dir, "ws");
  mkdirSync(ws);
  const file = join(ws, "generated.ts");
  writeFileSync(file, base.join(""));
  const ledger = new EditLedger({ home: join(dir, "home"), walkWorker: false });
  try {
    const afterLines = agentVersion(500);
    const capture = await ledger.beginTurn({
      threadId: THREAD,
      turn: 1,
      cwd: ws,
      agent: { id: "bench", name: "bench" },
    });
    writeFileSync(file, afterLines.join(""));
    await capture.end("end_turn");
    const engine = localEngine({ store: new ThreadStore(join(dir, "home")), ledger: () => ledger });
    let edits = 0;
    const place = () =>
      engine.call({ op: "review.placed", threads: [THREAD], path: file, text: typed(afterLines, 7_000, ++edits) });
    const first = (await place()).length;
    const samples: number[] = [];
    for (let r = 0; r < 15; r++) {
      const t0 = performance.now();
      await place();
      samples.push(performance.now() - t0);
    }
    const ms = samples.sort((a, b) => a - b)[7]!;
    const docNow = typed(afterLines, 7_000, 0);
    const after = afterLines.join("");
    const ranges = hunksOf(base.join(""), after).map((h) => ({ start: h.afterStart, end: h.afterEnd }));
    const [old] = medians([() => ranges.map((r) => mapRangeBefore(after, docNow, r.start, r.end))], 3);
    console.log(
      `  a keystroke's review.placed, 500 hunks (${first} placed), warm: ${fmt(ms)} ms   baseline: the old mapping alone of those hunks ${fmt(old)} ms   ratio ${(ms / old).toFixed(3)}  (median of 15)`,
    );
    if (first !== 500) failed = true;
  } finally {
    ledger.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

void feltByUser().then(() => {
  if (failed) process.exitCode = 1;
});
