// Threads from a real agent: a codex-acp session through ThreadSession becomes a thread file; killing the
// agent mid-turn keeps everything recorded so far and the next prompt restarts it through the load ladder;
// resuming in a new ThreadSession loads the agent's own session.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { AcpAgentRuntime } from "../../src/core/acp/agent-runtime";
import { ThreadSession, type ThreadSessionOptions } from "../../src/core/session";
import { ThreadStore } from "../../src/core/store/thread-store";
import { conversation } from "../../src/core/thread/conversation";
import { AGENT_TIMEOUT_MS, PROMPT, runtimeFor, setUp, skipUnlessInstalled, type Interop } from "./harness";

/** A codex-acp environment and ThreadSession options whose runtimes are collected (for pids), cleaned up after. */
async function withCodex(
  fn: (opts: ThreadSessionOptions, runtimes: AcpAgentRuntime[]) => Promise<void>,
): Promise<void> {
  const t = await setUp("codex-acp");
  try {
    const runtimes: AcpAgentRuntime[] = [];
    await fn(sessionOptions(t, runtimes), runtimes);
  } finally {
    await t.cleanup();
  }
}

function sessionOptions(t: Interop, runtimes: AcpAgentRuntime[]): ThreadSessionOptions {
  return {
    store: new ThreadStore(t.dataHome),
    agent: { id: t.agent.id, name: t.agent.id, command: t.agent.command, args: t.agent.args },
    cwd: t.workspace,
    createRuntime: () => {
      const rt = runtimeFor(t);
      runtimes.push(rt);
      return rt;
    },
  };
}

test(
  "a codex-acp session through the engine becomes a thread and resumes with session/load",
  { timeout: AGENT_TIMEOUT_MS * 2, skip: skipUnlessInstalled },
  () =>
    withCodex(async (opts) => {
      const session = await ThreadSession.start(opts);
      const result = await session.prompt(PROMPT);
      assert.equal(result.stopReason, "end_turn", result.error);
      await session.close();
      const read = opts.store.read(session.threadId);
      const kinds = read.records.map((r) => r.kind);
      assert.equal(kinds[0], "thread_start");
      assert.ok(kinds.includes("tool_call") && kinds.includes("turn_end"), kinds.join());
      assert.equal(kinds.filter((k) => k === "agent_message").length <= 3, true, "streamed chunks were coalesced");
      const conv = conversation(read.records);
      assert.equal(conv.find((e) => e.role === "user")?.text, PROMPT);
      assert.match(
        conv
          .filter((e) => e.role === "assistant")
          .map((e) => e.text)
          .join(""),
        /Done: created hello\.txt/,
      );
      assert.equal(read.metadata.status, "idle");
      assert.equal(read.metadata.agentSessionId, session.agentSessionId);
      assert.equal(read.metadata.counters.turns, 1);

      const resumed = await ThreadSession.resume(opts, session.threadId);
      assert.equal(resumed.origin, "load");
      const second = await resumed.prompt(PROMPT);
      assert.equal(second.stopReason, "end_turn", second.error);
      await resumed.close();
      assert.equal(opts.store.readMetadata(session.threadId).counters.turns, 2);
    }),
);

test(
  "killing codex-acp mid-turn keeps the recorded history and the next prompt recovers the session",
  { timeout: AGENT_TIMEOUT_MS * 2, skip: skipUnlessInstalled },
  () =>
    withCodex(async (opts, runtimes) => {
      const session = await ThreadSession.start(opts);
      let killed = false;
      session.onEvent((e) => {
        if (!killed && e.type === "tool_call") {
          killed = true;
          process.kill(-runtimes[0]!.pid!, "SIGKILL"); // the agent's whole process group, as a crash would
        }
      });
      const first = await session.prompt(PROMPT);
      assert.ok(killed, "the turn made a tool call before the kill");
      assert.notEqual(first.stopReason, "end_turn");
      const afterKill = opts.store.read(session.threadId);
      assert.equal(conversation(afterKill.records).find((e) => e.role === "user")?.text, PROMPT);
      assert.ok(
        afterKill.records.some((r) => r.kind === "tool_call"),
        "the open tool call was written at turn end",
      );
      assert.ok(afterKill.records.some((r) => r.kind === "error"));

      const again = await session.prompt("say done");
      assert.equal(runtimes.length, 2, "a fresh agent process");
      assert.ok(["load", "seeded"].includes(session.origin), session.origin);
      assert.equal(again.stopReason, "end_turn", again.error);
      await session.close();
      const users = opts.store.read(session.threadId).records.filter((r) => r.kind === "user_message");
      assert.equal(users.length, 2);
    }),
);
