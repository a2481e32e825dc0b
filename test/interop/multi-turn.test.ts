// Two turns in one session through the CLI (`run` takes one turn per PROMPT), the second in Chinese: the
// agent's own shell tool runs `ls -la` for "重构" and the Chinese answer quotes the listing from turn one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_TIMEOUT_MS, jsonLines, runAgentTurn, setUp, skipUnlessInstalled } from "./harness";

test(
  "codex-acp keeps one session across two CLI turns and answers a Chinese prompt in Chinese",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("codex-acp");
    try {
      const r = await runAgentTurn(
        t,
        "approve-all",
        ["create notes.txt containing first turn", "请重构这个目录"],
        ["--timeout", "100"],
      );
      const lines = jsonLines(r.stdout);
      const summary = lines.at(-1) ?? {};
      assert.equal(r.code, 0, `stderr: ${r.stderr.slice(-1500)}\nsummary: ${JSON.stringify(summary)}`);
      assert.deepEqual([summary.turns, summary.stopReason], [2, "end_turn"]);
      assert.equal(readFileSync(join(t.workspace, "notes.txt"), "utf8").trim(), "first turn");
      const answer = (turn: number) =>
        lines
          .filter((l) => l.turn === turn && l.type === "text" && l.stream === "output")
          .map((l) => l.text)
          .join("");
      assert.match(answer(1), /^Done: created notes\.txt\./);
      assert.match(answer(2), /^完成：已运行 `ls -la`。工具输出：.*notes\.txt/);
      assert.deepEqual(
        lines.filter((l) => l.type === "done").map((l) => [l.turn, l.stopReason]),
        [
          [1, "end_turn"],
          [2, "end_turn"],
        ],
      );
    } finally {
      await t.cleanup();
    }
  },
);
