/**
 * Inline review's placement per keystroke (ledger bench, `--only review`): the window asked its own `ReviewCache`
 * in process before (stop 54), it asks the engine's `review.placed` now (the same cache, kept by the engine with the
 * window's live ledger, its request checked and its reply made plain data). Both over the same ledger, warm (what a
 * keystroke pays once the thread was read), alternated in rounds; the ratio is the request's cost over the direct
 * call's. A 500-line file two threads changed (10 hunks), its first line typed into before each placement.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { localEngine } from "../src/core/engine/local";
import { EditLedger } from "../src/core/ledger/edit-ledger";
import { ReviewCache } from "../src/core/ledger/review-cache";
import { ThreadStore } from "../src/core/store/thread-store";

const LINES = 500;
const ROUNDS = 5;
const PER_ROUND = 40;
const THREADS = ["0196a000-0000-7000-8000-0000000000b1", "0196a000-0000-7000-8000-0000000000b2"];

const text = (edit: Map<number, string>) =>
  Array.from({ length: LINES }, (_, i) => edit.get(i) ?? `const line${i} = ${i};`).join("\n") + "\n";

export async function reviewPlacementRows(dir: string): Promise<[string, string][]> {
  const home = join(dir, "review-home");
  const ws = join(dir, "review-ws");
  mkdirSync(ws, { recursive: true });
  const file = join(ws, "big.ts");
  writeFileSync(file, text(new Map()));
  const ledger = new EditLedger({ home, walkWorker: false });
  const edits = new Map<number, string>();
  try {
    for (const [t, threadId] of THREADS.entries()) {
      const capture = await ledger.beginTurn({ threadId, turn: 1, cwd: ws, agent: { id: "bench", name: "bench" } });
      for (let k = 0; k < (t ? 4 : 6); k++) edits.set(37 + t * 11 + k * 71, `const changed${t}_${k} = true;`);
      writeFileSync(file, text(edits));
      await capture.end("end_turn");
    }
    const cache = new ReviewCache(ledger);
    const engine = localEngine({ store: new ThreadStore(home), ledger: () => ledger });
    const changed = text(edits);
    let typed = changed;
    const direct = () => cache.placed(THREADS, file, typed);
    const asked = () => engine.call({ op: "review.placed", threads: THREADS, path: file, text: typed });
    const hunks = [(await direct()).length, (await asked()).length];
    const times = { direct: [] as number[], asked: [] as number[] };
    for (let r = 0; r < ROUNDS; r++)
      for (const [name, place] of [
        ["direct", direct],
        ["asked", asked],
      ] as const) {
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < PER_ROUND; i++) {
          typed = `// typed ${r} ${i}\n${changed}`;
          await place();
        }
        times[name].push(Number(process.hrtime.bigint() - t0) / 1e3 / PER_ROUND);
      }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const [d, a] = [median(times.direct), median(times.asked)];
    return [
      [
        `inline review: a placement per keystroke, ${LINES}-line file, ${hunks[1]} hunks of 2 threads`,
        `${a.toFixed(0).padStart(7)} µs  engine request (review.placed)  baseline: the cache called in process ${d.toFixed(0)} µs  ratio ${(a / d).toFixed(2)}  (median of ${ROUNDS} rounds of ${PER_ROUND}; ${hunks[0]} hunks either way)`,
      ],
    ];
  } finally {
    ledger.dispose();
  }
}
