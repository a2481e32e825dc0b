// StatPool (#36 item 6): the walk worker's lstat calls split over helper threads give the same answers as one
// thread, in order, and a path that is gone comes back as NaN.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lstatSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { POOL_MIN_FILES, StatPool } from "../../../../src/core/ledger/stat-pool";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { withTmp } from "../store/helpers";

test("helper threads stat their chunks like the walk worker does, in order, with the chunks they kept or a new list; a gone file is NaN", async () => {
  await withTmp((dir) => {
    const rels: string[] = [];
    for (let d = 0; d < 25; d++) {
      mkdirSync(join(dir, `d${d}`));
      for (let f = 0; f < 100; f++) {
        const rel = `d${d}/f${f}.txt`;
        writeFileSync(join(dir, rel), "x".repeat(f));
        rels.push(rel);
      }
    }
    rels.splice(2222, 0, "d24/gone.txt");
    assert.ok(rels.length >= POOL_MIN_FILES);
    const pool = new StatPool(join(repoRoot(), "dist", "walk-worker.js"), 2);
    try {
      assert.equal(pool.size, 2);
      const paths = rels.map((rel) => join(dir, rel));
      // rounds 0 and 1: the same list (round 1's helpers use the chunks they kept); round 2: a list one shorter
      // at the front (every helper's chunk moves: sent again)
      for (let round = 0; round < 3; round++) {
        if (round === 2) {
          rels.shift();
          paths.shift();
        }
        const out = pool.statAll(paths);
        for (let i = 0; i < rels.length; i++) {
          const s = lstatSync(join(dir, rels[i]!), { throwIfNoEntry: false });
          if (!s) {
            assert.ok(Number.isNaN(out[i * 3]), rels[i]);
            continue;
          }
          assert.deepEqual([out[i * 3], out[i * 3 + 1], out[i * 3 + 2]], [s.size, s.mtimeMs, s.ino], rels[i]);
        }
        writeFileSync(join(dir, "d24/f99.txt"), "changed in the last chunk, the second helper's");
      }
    } finally {
      pool.dispose();
    }
  });
});
