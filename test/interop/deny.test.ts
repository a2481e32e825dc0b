// Policy denials through the CLI. codex-acp's only reject option for a patch aborts the whole turn, so the
// run ends cancelled with exit code 5 and nothing is written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { AGENT_TIMEOUT_MS, jsonLines, runAgentTurn, setUp, skipUnlessInstalled } from "./harness";

test(
  "codex-acp under --permission deny-all ends the turn cancelled with exit 5 and writes no file",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("codex-acp");
    try {
      const r = await runAgentTurn(t, "deny-all", undefined, ["--timeout", "100"]);
      const summary = jsonLines(r.stdout).at(-1) ?? {};
      assert.equal(r.code, 5, `stderr: ${r.stderr.slice(-1500)}\nsummary: ${JSON.stringify(summary)}`);
      assert.equal(summary.stopReason, "cancelled");
      const permissions = summary.permissions as { decidedBy: string; optionKind: string | null; kind: string }[];
      assert.ok(permissions.length >= 1);
      assert.deepEqual(
        [permissions[0].decidedBy, permissions[0].optionKind, permissions[0].kind],
        ["policy", "reject_once", "edit"],
      );
      assert.equal(existsSync(join(t.workspace, "hello.txt")), false);
    } finally {
      await t.cleanup();
    }
  },
);

// The other agents treat a rejected edit as "that tool failed", not as the end of the turn (real-agents.md,
// item 10): the turn still ends end_turn (exit 0), but nothing reaches the disk. gemini never gets as far as
// asking: under deny-all its probe read of the target is refused, and its write_file gives up.
for (const id of ["claude-agent-acp", "claude-code-acp", "gemini", "opencode"] as const) {
  test(
    `${id} under --permission deny-all writes nothing and records only denials`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(id);
      try {
        const r = await runAgentTurn(t, "deny-all", undefined, ["--timeout", "100"]);
        const summary = jsonLines(r.stdout).at(-1) ?? {};
        assert.equal(r.code, 0, `stderr: ${r.stderr.slice(-1500)}\nsummary: ${JSON.stringify(summary)}`);
        assert.equal(summary.stopReason, "end_turn");
        const permissions = summary.permissions as { decidedBy: string; optionKind: string | null }[];
        if (id !== "gemini") assert.ok(permissions.length >= 1, "the agent asked");
        for (const p of permissions)
          assert.deepEqual([p.decidedBy, p.optionKind?.startsWith("reject")], ["policy", true]);
        assert.equal(existsSync(join(t.workspace, "hello.txt")), false);
      } finally {
        await t.cleanup();
      }
    },
  );
}

// pi has no permission gate: it never asks, so no policy can stop it (users must know: deny-all is no sandbox).
test(
  "pi-acp asks nothing, so --permission deny-all does not stop its write",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("pi-acp");
    try {
      const r = await runAgentTurn(t, "deny-all", undefined, ["--timeout", "100"]);
      const summary = jsonLines(r.stdout).at(-1) ?? {};
      assert.deepEqual([r.code, summary.stopReason, summary.permissions], [0, "end_turn", []], r.stderr.slice(-1500));
      assert.equal(existsSync(join(t.workspace, "hello.txt")), true);
    } finally {
      await t.cleanup();
    }
  },
);
