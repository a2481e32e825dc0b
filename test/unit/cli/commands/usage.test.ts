import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { main as usageMain } from "../../../../src/cli/commands/usage";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { LiveThread } from "../../../../src/core/thread/live-thread";
import { parseSince } from "../../../../src/core/usage/since";
import { runCommand } from "../in-process";
import { startInput, withTmp } from "../../core/store/helpers";

async function cli(home: string, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await runCommand(usageMain, argv.slice(1), { home });
  return { code: r.code, stdout: r.out, stderr: r.err };
}

function seed(home: string, cwd: string): string {
  const store = new ThreadStore(home);
  const h = store.create(startInput(cwd, { agent: { id: "claude", name: "Claude", command: "/c" } }));
  const lt = new LiveThread(h, store.readPath(h.path).metadata, { flushMs: 0 });
  lt.sessionOpened("s", "new");
  lt.beginTurn("fix the bug");
  lt.record({ type: "usage", used: 7000, size: 200000, cost: { amount: 0.19, currency: "USD" } });
  lt.record({
    type: "done",
    stopReason: "end_turn",
    usage: { inputTokens: 12000, outputTokens: 345, totalTokens: 12345 },
  });
  lt.close();
  return lt.threadId;
}

test("acp-threads usage prints a table per agent and the same figures as JSON", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const id = seed(home, dir);
    const text = await cli(home, ["usage", "--by", "agent"]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^Usage by agent, all time/);
    assert.match(text.stdout, /Claude\s+1\s+12k\s+345\s+12k\s+\$0\.19\s+7k\/200k \(4%\)/);
    assert.match(text.stdout, /total\s+1\s+12k/);
    const json = await cli(home, ["usage", "--by", "thread", "--format", "json", "--since", "1h"]);
    const report = JSON.parse(json.stdout);
    assert.equal(report.rows.length, 1);
    assert.equal(report.rows[0].key, id);
    assert.equal(report.rows[0].label, "fix the bug");
    assert.equal(report.total.totalTokens, 12345);
    assert.deepEqual(report.total.costs, [{ currency: "USD", amount: 0.19 }]);
  }));

test("acp-threads usage rejects a bad --since or --by with exit 2 and says what it expects", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const bad = await cli(home, ["usage", "--since", "last tuesday"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /not a duration \(30m, 24h, 7d, 2w\), 'today' or a date/);
    const by = await cli(home, ["usage", "--by", "week"]);
    assert.equal(by.code, 2);
    assert.match(by.stderr, /--by must be one of day, agent, model, thread/);
    const empty = await cli(home, ["usage"]);
    assert.equal(empty.code, 0);
    assert.equal(empty.stdout, "no usage recorded\n");
  }));

test("--since accepts durations, today and local dates", () => {
  const now = new Date(2026, 4, 10, 15, 30).getTime();
  assert.equal(parseSince("2h", now), now - 7_200_000);
  assert.equal(parseSince("7d", now), now - 7 * 86_400_000);
  assert.equal(parseSince("today", now), new Date(2026, 4, 10).getTime());
  assert.equal(parseSince("2026-05-01", now), new Date(2026, 4, 1).getTime());
});
