// recentResults: doctor's answers for the new-thread panels (each open panel asked on every settings change, each
// answer one `--version` process per agent: a host suite run saw ~4 such processes a second, all the time).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { recentResults } from "../../../../src/core/util/recent";

function counted(ttlMs: number, maxKeys?: number) {
  let t = 0;
  let runs = 0;
  const gates: ((v: string) => void)[] = [];
  const recent = recentResults<string>({ ttlMs, now: () => t, ...(maxKeys ? { maxKeys } : {}) });
  const compute = () => {
    runs++;
    return new Promise<string>((r) => gates.push(r));
  };
  return {
    recent,
    compute,
    runs: () => runs,
    tick: (ms: number) => (t += ms),
    answer: (v: string) => gates.shift()!(v),
  };
}

describe("recentResults", () => {
  it("asks while a computation runs share it; an ask within the time kept gets its result", async () => {
    const c = counted(1000);
    const a = c.recent.get("k", c.compute);
    const b = c.recent.get("k", c.compute);
    assert.equal(c.runs(), 1, "shared while it runs");
    c.answer("one");
    assert.deepEqual(await Promise.all([a, b]), ["one", "one"]);
    c.tick(999);
    assert.equal(await c.recent.get("k", c.compute), "one", "kept");
    assert.equal(c.runs(), 1);
    c.tick(1);
    const later = c.recent.get("k", c.compute);
    assert.equal(c.runs(), 2, "computed again once the time kept is over");
    c.answer("two");
    assert.equal(await later, "two");
  });

  it("keys are apart; a failure is not kept; a computation that throws at once is a rejection", async () => {
    const c = counted(1000);
    const a = c.recent.get("a", c.compute);
    const b = c.recent.get("b", c.compute);
    assert.equal(c.runs(), 2);
    c.answer("A");
    c.answer("B");
    assert.deepEqual(await Promise.all([a, b]), ["A", "B"]);
    await assert.rejects(
      c.recent.get("x", async () => Promise.reject(new Error("no"))),
      /no/,
    );
    await assert.rejects(
      c.recent.get("y", () => {
        throw new Error("at once");
      }),
      /at once/,
    );
    assert.equal(await c.recent.get("x", async () => "again"), "again", "the failure was not kept");
  });

  it("clear(): kept and running results are shared no more (an agent was installed meanwhile)", async () => {
    const c = counted(1000);
    const kept = c.recent.get("k", c.compute);
    c.answer("before");
    await kept;
    const running = c.recent.get("r", c.compute);
    c.recent.clear();
    const after = c.recent.get("r", c.compute);
    assert.equal(c.runs(), 3, "the running one is not shared after the clear");
    c.answer("old");
    c.answer("new");
    assert.equal(await running, "old", "its askers have it");
    assert.equal(await after, "new");
    assert.equal(await c.recent.get("r", c.compute), "new", "the newer one is kept, not the one cleared");
    const again = c.recent.get("k", c.compute);
    assert.equal(c.runs(), 4, "the kept one was dropped");
    c.answer("k2");
    assert.equal(await again, "k2");
  });

  it("keeps at most maxKeys keys, the oldest going first", async () => {
    const c = counted(1000, 2);
    for (const k of ["a", "b", "c"]) {
      const p = c.recent.get(k, c.compute);
      c.answer(k);
      await p;
    }
    assert.equal(c.runs(), 3);
    await Promise.all([c.recent.get("b", c.compute), c.recent.get("c", c.compute)]);
    assert.equal(c.runs(), 3, "b and c kept");
    const a = c.recent.get("a", c.compute);
    assert.equal(c.runs(), 4, "a was dropped");
    c.answer("a");
    await a;
  });
});
