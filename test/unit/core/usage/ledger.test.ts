import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { LiveThread } from "../../../../src/core/thread/live-thread";
import { ledgerOf } from "../../../../src/core/usage/ledger";
import { openUsageIndex } from "../../../../src/core/usage/usage-index";
import { queryUsage } from "../../../../src/core/usage/usage-query";
import { turnUsageFrom } from "../../../../src/core/acp/turn-usage";
import { startInput, withTmp } from "../store/helpers";

function thread(store: ThreadStore, cwd: string, agent = { id: "claude", name: "Claude", command: "/bin/claude" }) {
  const h = store.create(startInput(cwd, { agent }));
  return new LiveThread(h, store.readPath(h.path).metadata, { flushMs: 0 });
}

const usd = (amount: number) => ({ currency: "USD", amount });

/** Two turns in one agent process, then a restart (session_open) whose cumulative cost starts again. */
function claudeLike(lt: LiveThread): void {
  lt.sessionOpened("s1", "new", { name: "@zed-industries/claude-agent-acp", version: "0.23.1" });
  lt.patch({ model: "sonnet" });
  lt.beginTurn("one");
  lt.record({ type: "usage", used: 7254, size: 200000, cost: usd(0.066579) });
  lt.record({ type: "usage", used: 7254, size: 200000, cost: usd(0.066579) }); // a repeat is not history
  lt.record({ type: "done", stopReason: "end_turn", usage: { inputTokens: 100, outputTokens: 10, totalTokens: 110 } });
  lt.beginTurn("two");
  lt.record({ type: "usage", used: 7269, size: 200000, cost: usd(0.088623) });
  lt.record({ type: "done", stopReason: "end_turn", usage: { inputTokens: 50, outputTokens: 5, totalTokens: 55 } });
  lt.sessionOpened("s1", "load");
  lt.beginTurn("three");
  lt.record({ type: "usage", used: 7398, size: 200000, cost: usd(0.1) }); // higher than before, yet a new session
  lt.record({ type: "done", stopReason: "end_turn" });
}

test("the ledger turns cumulative session costs into deltas and restarts them at each session_open", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const lt = thread(store, dir);
    claudeLike(lt);
    lt.close();
    const { records } = store.read(lt.threadId);
    assert.equal(records.filter((r) => r.kind === "usage").length, 3);
    const entries = ledgerOf(records);
    assert.deepEqual(
      entries.map((e) => [e.kind, e.cost, e.totalTokens, e.model]),
      [
        ["update", 0.066579, 0, "sonnet"],
        ["turn", null, 110, "sonnet"],
        ["update", 0.022044, 0, "sonnet"],
        ["turn", null, 55, "sonnet"],
        ["update", 0.1, 0, "sonnet"],
      ],
    );
  }));

test("without session_open records (older threads) a falling cost is taken as a restart", () => {
  const ts = (i: number) => new Date(Date.UTC(2026, 0, 1, 10, i)).toISOString();
  const agent = { id: "a", name: "A", command: "/a" };
  const entries = ledgerOf([
    {
      v: 1,
      ts: ts(0),
      kind: "thread_start",
      threadId: "t",
      agent,
      mode: "acp",
      cwd: "/",
      repoRoot: null,
      gitHead: null,
    },
    { v: 1, ts: ts(1), kind: "usage", used: 1, size: 9, cost: usd(0.5) },
    { v: 1, ts: ts(2), kind: "usage", used: 1, size: 9, cost: usd(0.75) },
    { v: 1, ts: ts(3), kind: "usage", used: 1, size: 9, cost: usd(0.2) },
  ]);
  assert.deepEqual(
    entries.map((e) => e.cost),
    [0.5, 0.25, 0.2],
  );
});

test("turn usage is read from ACP's PromptResponse.usage and from gemini's _meta.quota, never invented", () => {
  assert.deepEqual(turnUsageFrom({ stopReason: "end_turn", usage: { inputTokens: 10, outputTokens: 2 } }), {
    inputTokens: 10,
    outputTokens: 2,
    totalTokens: 12,
  });
  assert.deepEqual(
    turnUsageFrom({
      stopReason: "end_turn",
      _meta: {
        quota: {
          token_count: { input_tokens: 18359, output_tokens: 111 },
          model_usage: [
            { model: "gemini-3.8-flash", token_count: { input_tokens: 6119, output_tokens: 31 } },
            { model: "auto", token_count: { input_tokens: 12240, output_tokens: 80 } },
          ],
        },
      },
    }),
    {
      inputTokens: 18359,
      outputTokens: 111,
      totalTokens: 18470,
      byModel: [
        { model: "gemini-3.8-flash", inputTokens: 6119, outputTokens: 31 },
        { model: "auto", inputTokens: 12240, outputTokens: 80 },
      ],
    },
  );
  assert.equal(turnUsageFrom({ stopReason: "end_turn" }), undefined);
  assert.equal(turnUsageFrom({ stopReason: "end_turn", usage: { totalTokens: "many" } }), undefined);
});

test("the usage index sums per agent, model, day and thread, reads only appended tails and rebuilds when lost", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const a = thread(store, dir);
    claudeLike(a);
    a.close();
    const g = thread(store, dir, { id: "gemini", name: "Gemini", command: "/bin/gemini" });
    g.sessionOpened("g1", "new");
    g.beginTurn("hi");
    g.record({
      type: "done",
      stopReason: "end_turn",
      usage: {
        inputTokens: 30,
        outputTokens: 3,
        totalTokens: 33,
        byModel: [
          { model: "flash", inputTokens: 10, outputTokens: 1 },
          { model: "pro", inputTokens: 20, outputTokens: 2 },
        ],
      },
    });
    const first = openUsageIndex(store);
    assert.equal(first.stats.fullRead, 2);
    const byAgent = queryUsage(first.index, { by: "agent" });
    assert.deepEqual(
      byAgent.rows.map((r) => [r.key, r.label, r.turns, r.totalTokens, r.costs]),
      [
        ["claude", "Claude", 2, 165, [{ currency: "USD", amount: 0.188623 }]],
        ["gemini", "Gemini", 1, 33, []],
      ],
    );
    assert.equal(byAgent.total.totalTokens, 198);
    assert.deepEqual(byAgent.total.costs, [{ currency: "USD", amount: 0.188623 }]);
    assert.deepEqual(
      queryUsage(first.index, { by: "model" })
        .rows.map((r) => [r.key, r.totalTokens])
        .sort(),
      [
        ["flash", 11],
        ["pro", 22],
        ["sonnet", 165],
      ],
    );
    const today = queryUsage(first.index, { by: "day" });
    assert.equal(today.rows.length, 1);
    assert.match(today.rows[0]!.key, /^\d{4}-\d\d-\d\d$/);
    assert.equal(queryUsage(first.index, { by: "thread", threadId: g.threadId }).total.totalTokens, 33);
    assert.equal(queryUsage(first.index, { by: "agent", since: Date.now() + 60_000 }).rows.length, 0);
    first.index.close();

    // the gemini thread grows: only its tail is read, the claude thread is unchanged
    g.beginTurn("again");
    g.record({ type: "done", stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } });
    g.close();
    const second = openUsageIndex(store);
    assert.deepEqual([second.stats.tailRead, second.stats.unchanged, second.stats.entries], [1, 1, 1]);
    assert.equal(queryUsage(second.index, { by: "agent", agent: "gemini" }).total.totalTokens, 35);
    second.index.close();

    // a deleted thread leaves the ledger; a lost database is rebuilt from the files
    store.delete(a.threadId);
    rmSync(store.layout.usageDb);
    const third = openUsageIndex(store);
    assert.equal(third.index.created, true);
    assert.equal(queryUsage(third.index, { by: "agent" }).total.totalTokens, 35);
    third.index.close();
  }));
