// Session controls through the engine API on real agents: a config option (codex-acp's model) reaches the model
// requests, a mode (claude-agent-acp's acceptEdits) changes what the agent asks, and session/list finds the session.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { AGENT_TIMEOUT_MS, collectTurn, PROMPT, runtimeFor, setUp, skipUnlessInstalled } from "./harness";

test(
  "codex-acp switches model through its config option and the next turn asks the model server for it",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("codex-acp");
    const rt = runtimeFor(t);
    try {
      const s = await rt.ensureSession();
      assert.equal(s.configOptions?.find((o) => o.id === "model")?.currentValue, "gpt-5.5");
      const options = await rt.setConfigOption(s.sessionId, "model", "gpt-5.6-sol");
      assert.equal(options.find((o) => o.id === "model")?.currentValue, "gpt-5.6-sol");
      const events = await collectTurn(rt, s.sessionId);
      assert.deepEqual(
        [events.at(-1)?.type, (events.at(-1) as { stopReason?: string }).stopReason],
        ["done", "end_turn"],
      );
      // the turn's requests go to the chosen model; codex 0.166 names its small model (gpt-5.6-luna) for the title
      const models = t.server.stats().models;
      assert.equal(models[0], "gpt-5.6-sol", JSON.stringify(models));
      assert.ok(!models.includes("gpt-5.5"), JSON.stringify(models));
      const listed = await rt.listSessions(t.workspace);
      assert.deepEqual(
        listed.map((x) => [x.sessionId, x.title]),
        [[s.sessionId, PROMPT]],
      );
    } finally {
      await rt.close();
      await t.cleanup();
    }
  },
);

test(
  "claude-agent-acp in acceptEdits mode writes without asking, even when the policy would deny",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("claude-agent-acp");
    const rt = runtimeFor(t, "deny-all");
    try {
      const s = await rt.ensureSession();
      assert.equal(s.modes?.currentModeId, "default");
      assert.ok(s.modes?.availableModes.some((m) => m.id === "acceptEdits"));
      await rt.setMode(s.sessionId, "acceptEdits");
      const events = await collectTurn(rt, s.sessionId);
      assert.equal(events.at(-1)?.type, "done");
      assert.equal(events.filter((e) => e.type === "permission").length, 0, "nothing was asked");
      assert.equal(existsSync(join(t.workspace, "hello.txt")), true);
      const listed = await rt.listSessions(t.workspace);
      assert.ok(listed.some((x) => x.sessionId === s.sessionId));
    } finally {
      await rt.close();
      await t.cleanup();
    }
  },
);
