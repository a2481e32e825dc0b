// freshReads: a read asked for while one runs is answered by a read that starts after it (the worktree state in the
// Sessions tree stayed stale when a turn ended during a read begun before the turn's writes).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { freshReads } from "../../../../src/core/util/fresh-read";

function gated() {
  let value = 0;
  let starts = 0;
  const gates: (() => void)[] = [];
  const reads = freshReads(async (_key: string) => {
    starts++;
    const seen = value; // what the disk held when the read began
    await new Promise<void>((r) => gates.push(r));
    return seen;
  });
  return {
    reads,
    set: (v: number) => (value = v),
    open: async () => {
      await new Promise((r) => setImmediate(r));
      gates.shift()?.();
      await new Promise((r) => setImmediate(r));
    },
    starts: () => starts,
  };
}

describe("freshReads", () => {
  it("a read asked for during a running one sees what changed before the ask", async () => {
    const g = gated();
    const first = g.reads.read("wt");
    g.set(2); // the turn wrote its files, then asked for the state
    const second = g.reads.read("wt");
    assert.notEqual(second, first);
    await g.open();
    assert.equal(await first, 0);
    await g.open();
    assert.equal(await second, 2, "the later ask is answered by a read that began after it");
  });

  it("asks during a running read share one queued read; keys are independent", async () => {
    const g = gated();
    const a1 = g.reads.read("a");
    const a2 = g.reads.read("a");
    const a3 = g.reads.read("a");
    assert.equal(a2, a3);
    const b = g.reads.read("b");
    assert.equal(g.starts(), 2, "a and b run at once; a's second read waits");
    assert.ok(g.reads.busy("a"));
    await g.open(); // a1
    await g.open(); // b
    await g.open(); // the queued a
    await Promise.all([a1, a2, b]);
    assert.equal(g.starts(), 3);
    assert.equal(g.reads.busy("a"), false);
  });

  it("a failed running read does not fail the queued one", async () => {
    let n = 0;
    const reads = freshReads(async () => {
      if (n++ === 0) throw new Error("git timed out");
      return "fresh";
    });
    const first = reads.read("k");
    const second = reads.read("k");
    await assert.rejects(first, /git timed out/);
    assert.equal(await second, "fresh");
  });
});
