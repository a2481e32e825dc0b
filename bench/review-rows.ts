/**
 * The thread panel's changed-files rows (ledger bench, `--only review`): the window worked them out in process before
 * (panel-changes.ts, stop 55), it asks the engine's `review.turnChanges` now (the same work, the request checked and
 * its reply plain data), once per open panel after every change to the thread's ledger. Both over the same live
 * ledger, alternated in rounds; the ratio is the request's cost over the direct call's. A thread of 10 turns, each
 * changing 3 files of 200 lines in 2 places.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { localEngine } from "../src/core/engine/local";
import { turnChangesOf } from "../src/core/engine/serve-review-turns";
import { EditLedger } from "../src/core/ledger/edit-ledger";
import { ThreadStore } from "../src/core/store/thread-store";
import { startInput } from "../test/unit/core/store/helpers";

const TURNS = 10;
const FILES = 3;
const LINES = 200;
const ROUNDS = 5;
const PER_ROUND = 10;

const text = (turn: number, file: number) =>
  Array.from({ length: LINES }, (_, i) =>
    i === 20 + turn || i === 150 - turn ? `const edited${turn}_${file}_${i} = true;` : `const line${i} = ${i};`,
  ).join("\n") + "\n";

export async function reviewRowsRows(dir: string): Promise<[string, string][]> {
  const home = join(dir, "rows-home");
  const ws = join(dir, "rows-ws");
  mkdirSync(ws, { recursive: true });
  const store = new ThreadStore(home);
  const h = store.create(startInput(ws));
  h.close();
  const threadId = h.threadId;
  const ledger = new EditLedger({ home, walkWorker: false });
  try {
    for (let f = 0; f < FILES; f++) writeFileSync(join(ws, `f${f}.ts`), text(-1, f));
    for (let t = 1; t <= TURNS; t++) {
      const capture = await ledger.beginTurn({ threadId, turn: t, cwd: ws, agent: { id: "bench", name: "bench" } });
      for (let f = 0; f < FILES; f++) writeFileSync(join(ws, `f${f}.ts`), text(t, f));
      await capture.end("end_turn");
    }
    const engine = localEngine({ store, ledger: () => ledger });
    const direct = () => turnChangesOf(ledger, threadId, ws);
    const asked = () => engine.call({ op: "review.turnChanges", threadId, cwd: ws });
    const rows = [(await direct()).length, (await asked()).length];
    const times = { direct: [] as number[], asked: [] as number[] };
    for (let r = 0; r < ROUNDS; r++)
      for (const [name, run] of [
        ["direct", direct],
        ["asked", asked],
      ] as const) {
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < PER_ROUND; i++) await run();
        times[name].push(Number(process.hrtime.bigint() - t0) / 1e6 / PER_ROUND);
      }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const [d, a] = [median(times.direct), median(times.asked)];
    return [
      [
        `thread panel's changed-files rows, ${TURNS} turns × ${FILES} files of ${LINES} lines`,
        `${a.toFixed(1).padStart(7)} ms  engine request (review.turnChanges)  baseline: the same work called in process ${d.toFixed(1)} ms  ratio ${(a / d).toFixed(2)}  (median of ${ROUNDS} rounds of ${PER_ROUND}; ${rows[1]} rows, ${rows[0]} either way)`,
      ],
    ];
  } finally {
    ledger.dispose();
  }
}
