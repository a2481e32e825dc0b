// Mid-turn steering with the real adapters (#23 proof): the model server holds the agent's first model answer, so
// the turn is open; a second process steers a message into it (`acp-threads run --thread ID --steer TEXT`); the
// agent injects it (`_session/steering` → `injected`), the steered text reaches the MODEL in a later request of
// the same turn, and the thread records it as a steered user message.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ThreadStore } from "../../src/core/store/thread-store";
import type { AgentId } from "../fixtures/agent-env/index";
import { AGENT_TIMEOUT_MS, runArgs, runCli, setUp, skipUnlessInstalled, startCli } from "./harness";

const MARKER = "steered-marker-7f3a";

/** Model requests (logged bodies) that carry `text`, in arrival order. */
function requestsWith(runDir: string, text: string): number[] {
  let lines: string[];
  try {
    lines = readFileSync(join(runDir, "model.jsonl"), "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
  return lines.flatMap((l, i) => (l.includes(text) ? [i] : []));
}

for (const id of ["codex-acp", "claude-agent-acp"] as AgentId[]) {
  test(
    `${id}: a message steered into a held turn reaches the model and is recorded as steered`,
    { timeout: AGENT_TIMEOUT_MS * 2, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(id, { modelLog: true });
      try {
        // hold the first model answer that offers tools (the turn itself, not a title side request)
        t.server.configure({ stall: { count: 1, afterEvents: 0, withTools: true } });
        const owner = startCli(t, runArgs(t, "approve-all", "say hello", ["--timeout", "100"]));
        let exited = false;
        void owner.result.then(() => (exited = true));
        while (!exited && t.server.stats().faults.stalls < 1) await sleep(50);
        assert.equal(exited, false, "the turn is open (its model answer is held)");
        const store = new ThreadStore(t.dataHome);
        const [threadId] = readdirSync(store.threadsDir)
          .filter((f) => f.endsWith(".jsonl"))
          .map((f) => f.slice(0, -".jsonl".length));
        assert.ok(threadId, "the running CLI created its thread");
        const steer = await runCli(t, ["run", "--thread", threadId!, "--steer", `also mention ${MARKER}`]);
        assert.equal(steer.code, 0, steer.stderr);
        assert.match(steer.stderr, /steered into the running turn/);
        t.server.releaseStalls();
        const r = await owner.result;
        assert.equal(r.code, 0, r.stderr.slice(-1500));
        const carrying = requestsWith(t.runDir, MARKER);
        assert.ok(carrying.length >= 1, "a model request carries the steered text");
        assert.ok(
          requestsWith(t.runDir, "say hello").includes(carrying[0]!),
          "that request is the same conversation (it carries the turn's prompt too)",
        );
        const users = store
          .read(threadId!)
          .records.flatMap((x) => (x.kind === "user_message" ? [[x.text, x.steered ?? false]] : []));
        assert.deepEqual(users, [
          ["say hello", false],
          [`also mention ${MARKER}`, true],
        ]);
        const turns = store.read(threadId!).metadata.counters.turns;
        assert.equal(turns, 1, "the steered message joined the running turn, no second turn");
      } finally {
        await t.cleanup();
      }
    },
  );
}
