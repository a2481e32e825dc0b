import assert from "node:assert/strict";
import { test } from "node:test";
import { UsageMeter } from "../../../../src/core/usage/meter";

test("the meter sums reported turn tokens and turns the cumulative cost into what was spent", () => {
  const m = new UsageMeter();
  assert.equal(m.add({ type: "text", stream: "output", text: "hi" }), false, "other events change nothing");
  m.add({ type: "usage", used: 1000, size: 200_000, cost: { amount: 0.05, currency: "USD" } });
  m.add({ type: "done", stopReason: "end_turn", usage: { inputTokens: 1200, outputTokens: 300, totalTokens: 1500 } });
  m.add({ type: "usage", used: 4000, size: 200_000, cost: { amount: 0.08, currency: "USD" } });
  m.add({ type: "done", stopReason: "end_turn", usage: { inputTokens: 800, outputTokens: 200, totalTokens: 1000 } });
  assert.deepEqual(m.reading, {
    turns: 2,
    tokens: 2500,
    tokensReported: true,
    costs: [{ currency: "USD", amount: 0.08 }],
    contextUsed: 4000,
    contextSize: 200_000,
  });
});

test("a restarted agent reports its cost from zero again: the meter keeps counting up", () => {
  const m = new UsageMeter();
  m.add({ type: "usage", used: 10, size: 100, cost: { amount: 0.5, currency: "USD" } });
  m.add({ type: "usage", used: 10, size: 100, cost: { amount: 0.2, currency: "USD" } }); // new agent session
  assert.deepEqual(m.reading.costs, [{ currency: "USD", amount: 0.7 }]);
});

test("nothing reported, nothing shown: no tokens, no cost, no context", () => {
  const m = new UsageMeter();
  m.add({ type: "done", stopReason: "end_turn" });
  m.add({ type: "usage", used: 5, size: 10, cost: null });
  const r = m.reading;
  assert.equal(r.turns, 1);
  assert.equal(r.tokensReported, false);
  assert.deepEqual(r.costs, []);
  assert.equal(r.contextUsed, 5);
});
