// The usage ledger with real agents: each reports differently (claude-agent-acp a cumulative USD cost and
// per-turn tokens; gemini per-turn tokens per model in _meta.quota; codex-acp 2.6 per-turn tokens and its context
// fill; pi-acp only its context fill), and
// `acp-threads usage` shows exactly what was reported.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AGENT_TIMEOUT_MS, runAgentTurn, runCli, setUp, skipUnlessInstalled } from "./harness";

interface Row {
  key: string;
  turns: number;
  totalTokens: number;
  costs: { currency: string; amount: number }[];
  contextUsed: number | null;
}

const CASES = [
  {
    id: "claude-agent-acp",
    check(rows: Row[]) {
      const models = rows.map((r) => r.key);
      assert.equal(
        rows.reduce((n, r) => n + r.turns, 0),
        2,
        JSON.stringify(rows),
      );
      assert.ok(rows.every((r) => r.totalTokens > 0));
      const usd = rows.flatMap((r) => r.costs).filter((c) => c.currency === "USD");
      assert.ok(usd.length && usd.every((c) => c.amount > 0), `claude reports a cost: ${JSON.stringify(rows)}`);
      assert.ok(models.length >= 1);
    },
  },
  {
    id: "gemini",
    check(rows: Row[]) {
      // gemini-cli names the model(s) of each turn in _meta.quota (its router model and, for tool work, the main one)
      assert.ok(rows.length >= 1 && rows.every((r) => r.key.startsWith("gemini")), JSON.stringify(rows));
      assert.equal(
        rows.reduce((n, r) => n + r.turns, 0),
        2,
      );
      assert.ok(
        rows.every((r) => r.costs.length === 0),
        "gemini reports no cost",
      );
      assert.ok(rows.reduce((n, r) => n + r.totalTokens, 0) > 0);
    },
  },
  {
    id: "codex-acp",
    check(rows: Row[]) {
      // codex-acp 2.6 reports each turn's tokens (PromptResponse.usage) and its context fill, no cost
      assert.equal(rows.length, 1, JSON.stringify(rows));
      assert.equal(rows[0]!.key, "gpt-5.5");
      assert.deepEqual([rows[0]!.turns, rows[0]!.costs], [2, []]);
      assert.ok(rows[0]!.totalTokens > 0 && (rows[0]!.contextUsed ?? 0) > 0, JSON.stringify(rows));
    },
  },
  {
    id: "pi-acp",
    check(rows: Row[]) {
      // pi-acp reports only its context fill (usage_update without a cost), no turn tokens
      assert.equal(rows.length, 1, JSON.stringify(rows));
      assert.deepEqual([rows[0]!.turns, rows[0]!.totalTokens, rows[0]!.costs], [0, 0, []], JSON.stringify(rows));
      assert.ok((rows[0]!.contextUsed ?? 0) > 0);
    },
  },
] as const;

for (const c of CASES) {
  test(
    `${c.id}: acp-threads usage shows the tokens and costs it reported, per model`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(c.id);
      try {
        const r = await runAgentTurn(t, "approve-all", ["say hello", "say goodbye"], ["--timeout", "100"]);
        assert.equal(r.code, 0, r.stderr.slice(-1500));
        const u = await runCli(t, ["usage", "--by", "model", "--format", "json"]);
        assert.equal(u.code, 0, u.stderr);
        c.check((JSON.parse(u.stdout) as { rows: Row[] }).rows);
        const text = await runCli(t, ["usage", "--by", "agent"]);
        assert.match(text.stdout, new RegExp(`^${c.id}\\s`, "m"));
      } finally {
        await t.cleanup();
      }
    },
  );
}
