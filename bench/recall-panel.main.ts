/**
 * Recall panel bench (#35 item 7): the window's recall queries as the Recall view makes them (our threads synced
 * first, then the search), off the extension host's thread in the engine worker (core/engine/worker.ts). Figures:
 * the window's first query (worker start, index open, SQLite's WASM compile, sync, search) and the warm query round
 * trip (p50/p95), next to a baseline measured in the same run: the same engine requests in this thread
 * (`localEngine` keeping the index open: no worker hop). Then where a fresh worker's first query goes, in phases
 * (engine-worker-phases.ts), in the same rounds (`--rounds N`, default 7), and the bundle's size. Corpus: a synthetic Codex
 * history of `--messages N` (default 20k) messages, imported once.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localEngine } from "../src/core/engine/local";
import type { Engine } from "../src/core/engine/requests";
import { workerEngine } from "../src/core/engine/worker";
import { writeCorpus } from "./recall-corpus";
import { PHASES, workerPhases, type Phases } from "./engine-worker-phases";

const SCRIPT = join(process.cwd(), "dist", "engine-worker.js");
const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "acp-bench-recall-panel-"));
  try {
    const home = join(dir, "home");
    const corpus = writeCorpus(join(dir, "sessions"), arg("--messages", 20_000), 11);
    const seed = workerEngine({ script: SCRIPT, home });
    await seed.call({ op: "recall.import", codex: { root: corpus.root, allHistory: true } });
    await seed.close();
    const words = corpus.vocab.latin;
    const query = (e: Engine, i: number) =>
      e.call({ op: "recall.search", query: words[i % words.length]!, global: true, sync: true, limit: 10 });

    const paths: [string, () => Engine & { close(): unknown }][] = [
      ["engine worker", () => workerEngine({ script: SCRIPT, home })],
      ["in this thread (baseline)", () => localEngine({ home, recallIndex: {} })],
    ];
    // the first query, then the same in phases (a fresh worker each time), in the same rounds: same conditions
    const first: Record<string, number[]> = {};
    const phases: Phases[] = [];
    for (let round = 0; round < arg("--rounds", 7); round++) {
      for (const [name, make] of paths) {
        const e = make();
        const t0 = performance.now();
        await query(e, round);
        (first[name] ??= []).push(performance.now() - t0);
        await e.close();
      }
      const q = words[round % words.length]!;
      phases.push(
        await workerPhases(SCRIPT, home, { op: "recall.search", query: q, global: true, sync: true, limit: 10 }),
      );
    }
    for (const [name, make] of paths) {
      const e = make();
      for (let i = 0; i < 50; i++) await query(e, i); // warm-up
      const rt: number[] = [];
      for (let i = 0; i < 300; i++) {
        const t0 = performance.now();
        await query(e, i);
        rt.push(performance.now() - t0);
      }
      await e.close();
      console.log(
        `${name.padEnd(28)} first query p50 ${pct(first[name]!, 0.5).toFixed(0)} ms · ` +
          `warm round trip p50 ${pct(rt, 0.5).toFixed(2)} ms, p95 ${pct(rt, 0.95).toFixed(2)} ms`,
      );
    }
    const kb = Math.round(statSync(SCRIPT).size / 1024);
    const p50 = (f: (r: Phases) => number) => pct(phases.map(f), 0.5).toFixed(1);
    const parts = PHASES.map((p) => `${p} ${p50((r) => r[p])} ms`).join(" · ");
    const sum = p50((r) => PHASES.reduce((a, p) => a + r[p], 0));
    console.log(`engine worker's first query in phases (p50; ${kb} KB bundle): ${parts} · sum ${sum} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
