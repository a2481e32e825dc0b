// inParallel (util/at-once.ts): the tracker's reads and the cold catalog's share it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { inParallel } from "../../../../src/core/util/at-once";

test("inParallel runs at most n at a time and returns the results in the items' order", async () => {
  let running = 0;
  let most = 0;
  const out = await inParallel([5, 1, 4, 2, 3], 2, async (ms) => {
    most = Math.max(most, ++running);
    await new Promise((r) => setTimeout(r, ms));
    running -= 1;
    return ms * 10;
  });
  assert.deepEqual(out, [50, 10, 40, 20, 30]);
  assert.equal(most, 2);
  assert.deepEqual(await inParallel([], 16, async () => 1), []);
});
