// #25 item 5: a CLI run of a real agent is recorded in the thread's edit ledger. codex-acp writes hello.txt
// through `acp-threads run`; `acp-threads changes THREAD --format json` lists it (it said "no recorded changes").
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_TIMEOUT_MS, jsonLines, runAgentTurn, runCli, setUp, skipUnlessInstalled } from "./harness";

test(
  "codex-acp: a file written through acp-threads run is listed by acp-threads changes",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("codex-acp");
    try {
      const r = await runAgentTurn(t, "approve-all", undefined, ["--timeout", "100"]);
      const summary = jsonLines(r.stdout).at(-1) ?? {};
      assert.equal(r.code, 0, `stderr: ${r.stderr.slice(-1500)}\nsummary: ${JSON.stringify(summary)}`);
      assert.equal(readFileSync(join(t.workspace, "hello.txt"), "utf8").trim(), "hi");
      const listed = await runCli(t, ["changes", String(summary.threadId), "--format", "json"]);
      assert.equal(listed.code, 0, listed.stderr);
      const ops = (JSON.parse(listed.stdout) as { ops: { turn: number; files: { rel: string; change: string }[] }[] })
        .ops;
      assert.deepEqual(
        ops.map((o) => [o.turn, o.files.map((f) => [f.rel, f.change])]),
        [[1, [["hello.txt", "added"]]]],
      );
    } finally {
      await t.cleanup();
    }
  },
);
