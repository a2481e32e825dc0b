// A model API failure (HTTP 400 from the scripted server) reaches the CLI with the provider's reason, exit 1,
// and a protocol log under the data home. codex-acp hides the reason in the JSON-RPC error's `data`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { AGENT_TIMEOUT_MS, jsonLines, processesGone, runAgentTurn, setUp, skipUnlessInstalled } from "./harness";

const REASON = "scripted failure: model unavailable";

for (const id of ["codex-acp", "claude-agent-acp"] as const) {
  test(
    `${id} reports a failing model API with its reason and exit 1`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(id);
      try {
        // Enough failures for every request of the turn: Claude Code retries nothing on a 400, codex is set to 0 retries.
        t.server.configure({ fail: { status: 400, count: 50, message: REASON } });
        const r = await runAgentTurn(t, "approve-all", undefined, ["--timeout", "100"]);
        const summary = jsonLines(r.stdout).at(-1) ?? {};
        assert.equal(r.code, 1, `stderr: ${r.stderr.slice(-1500)}`);
        assert.ok(String(summary.error).includes(REASON), `summary error: ${String(summary.error)}`);
        assert.ok(t.server.stats().injectedFailures >= 1);
        const log = /protocol log written to (\S+)/.exec(r.stderr)?.[1];
        assert.ok(log && log.startsWith(t.dataHome) && existsSync(log), `stderr: ${r.stderr}`);
        assert.deepEqual(await processesGone(t), []);
      } finally {
        await t.cleanup();
      }
    },
  );
}
