// Handoff between real agents: a codex-acp thread is handed to claude-agent-acp with `acp-threads handoff`; the
// brief names the goal, the file codex changed and its last message; the threads link both ways; the run on the
// named session of codex continues through session/load (run --session).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ThreadStore } from "../../src/core/store/thread-store";
import { conversation } from "../../src/core/thread/conversation";
import { prepareAgentEnv } from "../fixtures/agent-env/index";
import { AGENT_TIMEOUT_MS, jsonLines, PROMPT, runCli, runArgs, setUp, skipUnlessInstalled } from "./harness";

test(
  "a codex-acp thread handed off to claude-agent-acp: brief, new linked thread, work continued",
  { timeout: AGENT_TIMEOUT_MS * 2, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("codex-acp");
    try {
      const first = await runCli(t, runArgs(t, "approve-all", PROMPT, ["--session", "feature"]));
      assert.equal(first.code, 0, first.stderr.slice(-1500));
      const fromId = jsonLines(first.stdout).at(-1)!.threadId as string;
      // the named session continues with session/load in a new codex-acp process
      const again = await runCli(t, [
        "run",
        "--session",
        "feature",
        "--permission",
        "approve-all",
        "--format",
        "json",
        "say hello",
      ]);
      assert.equal(again.code, 0, again.stderr.slice(-1500));
      assert.deepEqual(
        [jsonLines(again.stdout).at(-1)!.threadId, jsonLines(again.stdout).at(-1)!.origin],
        [fromId, "load"],
      );
      const printed = await runCli(t, ["handoff", fromId, "--agent", "claude", "--print"]);
      assert.equal(printed.code, 0, printed.stderr);
      assert.match(printed.stdout, /## Goal\ncreate hello\.txt containing hi and run `echo hi`/);
      assert.match(printed.stdout, /## Files touched so far\n- hello\.txt \(changed\)/);
      assert.match(printed.stdout, /## Last message from codex-acp\n/);
      // claude-agent-acp in the same isolated home (its env next to codex's)
      const claude = prepareAgentEnv("claude-agent-acp", {
        modelUrl: t.server.url,
        workspace: t.workspace,
        runDir: t.runDir,
      });
      const envFlags = Object.entries(claude.vars).flatMap(([k, v]) => ["--env", `${k}=${v}`]);
      const r = await runCli(t, [
        "handoff",
        fromId,
        "--agent",
        claude.command,
        "--permission",
        "approve-all",
        "--format",
        "json",
        ...envFlags,
      ]);
      assert.equal(r.code, 0, r.stderr.slice(-2000));
      const toId = jsonLines(r.stdout).at(-1)!.threadId as string;
      assert.ok(r.stderr.includes(`codex-acp → ${claude.command}: new thread ${toId}`), r.stderr);
      const store = new ThreadStore(t.dataHome);
      const to = store.read(toId);
      assert.deepEqual(to.metadata.origin, { kind: "handoff", source: fromId });
      assert.deepEqual(store.read(fromId).metadata.handedOffTo, [toId]);
      const said = conversation(to.records);
      assert.match(
        said.find((e) => e.role === "user")!.text,
        /^You are taking over a task from another coding agent \(codex-acp\)/,
      );
      assert.ok(said.some((e) => e.role === "assistant" && /Done: created hello\.txt/.test(e.text)));
    } finally {
      await t.cleanup();
    }
  },
);
