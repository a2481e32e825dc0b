// codex-acp 2.6 subagents (#23 item 4): we advertise `clientCapabilities.subagents`, so codex-acp exposes child
// sessions. With codex's multi-agent (v2) tools on, the scripted model makes codex spawn a subagent (spawn_agent,
// "delegate `cmd` to a subagent named NAME") and wait for it; codex-acp announces the child (`subagent_spawned`)
// and sends its traffic under the child's session id; the child's own tool call (its `echo`) is recorded nested
// with `parentToolCallId`, nothing of it top-level.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ThreadStore } from "../../src/core/store/thread-store";
import { AGENT_TIMEOUT_MS, runArgs, runCli, setUp, skipUnlessInstalled } from "./harness";

const MARK = "child-marker-5c1e";

test(
  "codex-acp: a spawned subagent's tool call is recorded nested under its subagent call",
  { timeout: AGENT_TIMEOUT_MS * 2, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("codex-acp", { modelLog: true });
    try {
      // codex offers spawn_agent / wait_agent (namespace `collaboration`) only with its multi-agent features on
      const cfg = join(t.agent.env.CODEX_HOME!, "config.toml");
      const toml = readFileSync(cfg, "utf8");
      writeFileSync(cfg, `${toml}\n[features]\nmulti_agent = true\nmulti_agent_v2 = true\n`, { mode: 0o600 });
      const prompt = `delegate \`echo ${MARK}\` to a subagent named counter and wait for it`;
      const r = await runCli(t, runArgs(t, "approve-all", prompt, ["--timeout", "200"]));
      assert.equal(r.code, 0, r.stderr.slice(-1500));
      const store = new ThreadStore(t.dataHome);
      const [thread] = store.list();
      assert.ok(thread, "the run recorded a thread");
      type Call = { toolCallId: string; title: string; parentToolCallId?: string; status: string; content: unknown };
      const calls = new Map<string, Call>();
      for (const rec of store.read(thread.threadId).records)
        if (rec.kind === "tool_call") calls.set(rec.toolCall.toolCallId, rec.toolCall as Call);
      const all = [...calls.values()];
      const child = all.find((c) => c.title.includes(MARK));
      assert.ok(child, `the child's echo call: ${JSON.stringify(all.map((c) => c.title))}`);
      assert.ok(child.parentToolCallId, "the child's call names a parent");
      // codex-acp's multi-agent v2 announces the child (subagent_spawned) without a spawn tool call: the child
      // hangs under a call of ours, top-level, finished when codex says the child completed
      const parent = calls.get(child.parentToolCallId);
      assert.ok(parent, "its parent is recorded");
      assert.match(parent.title, /^Subagent: Counter$/i);
      assert.equal(parent.parentToolCallId, undefined);
      assert.equal(parent.status, "completed");
      assert.match(JSON.stringify(parent.content), new RegExp(`Output: ${MARK}`), "the child's answer is its text");
      assert.ok(!all.some((c) => c !== child && c.title.includes(MARK)), "the child's call is recorded once");
    } finally {
      await t.cleanup();
    }
  },
);
