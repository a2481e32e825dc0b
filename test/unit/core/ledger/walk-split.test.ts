// The walk worker's stats spread over threads (#36 item 6, stat-pool.ts): a walk whose files are stat'ed by
// 2 or 4 threads answers exactly as the walk worker alone, on a real tree, through rounds with files changed in
// every thread's slice, and deleted and added so that the slices' bounds move; a one-core setting (one thread in
// all) takes the one-thread path, and the default uses the machine's cores up to the cap.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { POOL_MIN_FILES, statHelpers } from "../../../../src/core/ledger/stat-pool";
import { WalkWorker, type WalkAnswer } from "../../../../src/core/ledger/walk-worker-client";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { withTmp } from "../store/helpers";

const DIRS = 25;
const PER_DIR = 100;
const rel = (d: number, f: number | string) => `d${String(d).padStart(2, "0")}/f${f}.txt`;
const script = () => join(repoRoot(), "dist", "walk-worker.js");

/** What a walk answered, in a form two walks can be compared by (the changed files sorted). */
const seen = (a: WalkAnswer | undefined) => ({
  changed: [...(a?.walk.changed ?? [])].sort(([x], [y]) => x.localeCompare(y)),
  removed: [...(a?.walk.removed ?? [])].sort(),
  full: a?.walk.full,
});

test("the one-core setting has no stat helper; more cores get one each, up to three", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 16].map(statHelpers), [0, 0, 1, 2, 3, 3]);
});

test("a walk stat'ed by 2 or 4 threads answers as the walk worker alone, round after round, slices moving", async () => {
  await withTmp(async (ws) => {
    for (let d = 0; d < DIRS; d++) {
      mkdirSync(join(ws, `d${String(d).padStart(2, "0")}`));
      for (let f = 0; f < PER_DIR; f++) writeFileSync(join(ws, rel(d, String(f).padStart(3, "0"))), `${d}/${f}\n`);
    }
    assert.ok(DIRS * PER_DIR >= POOL_MIN_FILES, "enough files for the helpers to be asked");
    const hourAgo = new Date(Date.now() - 3600_000);
    for (let d = 0; d < DIRS; d++) utimesSync(join(ws, `d${String(d).padStart(2, "0")}`), hourAgo, hourAgo);
    const workers = [1, 2, 4].map((statThreads) => {
      const worker = new WalkWorker(script(), undefined, { statThreads });
      return { statThreads, worker, client: worker.client(), gen: undefined as number | undefined };
    });
    const walkAll = () =>
      Promise.all(
        workers.map(async (w) => {
          const a = await w.worker.walk({
            client: w.client,
            root: ws,
            top: ws,
            prefix: "",
            maxFiles: 1e6,
            ...(w.gen !== undefined ? { since: w.gen } : {}),
          });
          assert.ok(a, "the walk worker answered");
          w.gen = a.gen;
          assert.equal(a.threads, w.statThreads, `the stats of a ${w.statThreads}-thread walk`);
          return seen(a);
        }),
      );
    try {
      const first = await walkAll();
      assert.equal(first[0]!.changed.length, DIRS * PER_DIR);
      // each round touches every folder (every thread's slice), deletes in some and adds in others
      const rounds: { touch: (d: number) => void; removed: string[]; added: string[] }[] = [
        {
          touch: (d) => writeFileSync(join(ws, rel(d, "050")), `edited in place, round 1, ${d}, longer\n`),
          removed: [rel(3, "010"), rel(12, "099")],
          added: [rel(8, "new"), rel(20, "000a")],
        },
        {
          touch: (d) => utimesSync(join(ws, rel(d, "007")), new Date(2000, 1, d + 1), new Date(2000, 1, d + 1)),
          removed: [rel(0, "000"), rel(24, "099"), rel(18, "042")],
          added: [rel(5, "zz"), rel(6, "zz"), rel(7, "zz"), rel(13, "000b")],
        },
        { touch: () => undefined, removed: [], added: [] },
      ];
      for (const [i, r] of rounds.entries()) {
        const touched: string[] = [];
        for (let d = 0; d < DIRS; d++) {
          r.touch(d);
          if (i < 2) touched.push(rel(d, i === 0 ? "050" : "007"));
        }
        for (const x of r.removed) unlinkSync(join(ws, x));
        for (const x of r.added) writeFileSync(join(ws, x), `added in round ${i + 1}\n`);
        const [alone, two, four] = await walkAll();
        assert.deepEqual(
          alone!.changed.map(([p]) => p),
          [...touched, ...r.added].sort(),
          `round ${i + 1}`,
        );
        assert.deepEqual(alone!.removed, [...r.removed].sort(), `round ${i + 1}`);
        assert.deepEqual(two, alone, `round ${i + 1}: 2 threads`);
        assert.deepEqual(four, alone, `round ${i + 1}: 4 threads`);
      }
    } finally {
      for (const w of workers) w.worker.dispose();
    }
  });
});

test("by default the walk's stats take the machine's cores, up to four threads", async () => {
  await withTmp(async (ws) => {
    for (let d = 0; d < DIRS; d++) {
      mkdirSync(join(ws, `d${String(d).padStart(2, "0")}`));
      for (let f = 0; f < PER_DIR; f++) writeFileSync(join(ws, rel(d, f)), "x\n");
    }
    const worker = new WalkWorker(script());
    try {
      const a = await worker.walk({ client: worker.client(), root: ws, top: ws, prefix: "", maxFiles: 1e6 });
      assert.equal(a?.threads, statHelpers(availableParallelism()) + 1);
      assert.equal(a?.walk.changed.size, DIRS * PER_DIR);
    } finally {
      worker.dispose();
    }
  });
});
