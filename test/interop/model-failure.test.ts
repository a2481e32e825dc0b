// A model API failure (HTTP 400 from the scripted server) reaches the CLI with the provider's reason, exit 1,
// and a protocol log under the data home (codex-acp 0.16 hides the reason in the JSON-RPC error's `data`), or, for
// pi-acp, which does not fail the turn, ends it without a tool call or a file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { AGENT_TIMEOUT_MS, jsonLines, processesGone, runAgentTurn, setUp, skipUnlessInstalled } from "./harness";

const REASON = "scripted failure: model unavailable";

// How each adapter ends a turn whose model requests all fail: with a JSON-RPC error carrying the reason, or
// (codex-acp 2.6, claude-agent-acp 0.101) with end_turn and a typed session failure in `_meta` that we advertise
// and read (without it codex-acp 2.6 says the reason as its answer): both end our turn failed, exit 1. pi-acp
// ends with end_turn and nothing said at all: pi's error never reaches the client.
const ENDS = {
  "codex-acp": "error",
  "claude-agent-acp": "error",
  "pi-acp": "silent",
  "codex-acp-0.16": "error",
} as const;

for (const [id, ends] of Object.entries(ENDS) as [keyof typeof ENDS, (typeof ENDS)[keyof typeof ENDS]][]) {
  test(
    ends === "error"
      ? `${id} reports a failing model API with its reason and exit 1`
      : `${id} ends a turn whose model API fails with end_turn (no word of it)`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(id);
      try {
        // Enough failures for every request of the turn: Claude Code retries nothing on a 400, codex is set to 0 retries.
        t.server.configure({ fail: { status: 400, count: 50, message: REASON } });
        const r = await runAgentTurn(t, "approve-all", undefined, ["--timeout", "100"]);
        const lines = jsonLines(r.stdout);
        const summary = lines.at(-1) ?? {};
        assert.ok(t.server.stats().injectedFailures >= 1);
        assert.equal(existsSync(join(t.workspace, "hello.txt")), false);
        if (ends === "error") {
          assert.equal(r.code, 1, `stderr: ${r.stderr.slice(-1500)}`);
          assert.ok(String(summary.error).includes(REASON), `summary error: ${String(summary.error)}`);
          const log = /protocol log written to (\S+)/.exec(r.stderr)?.[1];
          assert.ok(log && log.startsWith(t.dataHome) && existsSync(log), `stderr: ${r.stderr}`);
        } else {
          assert.deepEqual([r.code, summary.stopReason, summary.toolCalls], [0, "end_turn", 0], r.stderr.slice(-1500));
        }
        assert.deepEqual(await processesGone(t), []);
      } finally {
        await t.cleanup();
      }
    },
  );
}
