/** Steering a running turn (`_session/steering`) with the stdio fake agent: recorded, emitted, never silent. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { createAgentRuntime } from "../../../../src/core/acp/agent-runtime";
import { steeringSupported } from "../../../../src/core/acp/steering";
import type { RuntimeEvent } from "../../../../src/core/model/events";
import { ThreadSession } from "../../../../src/core/session";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { recordsToEvents } from "../../../../src/core/thread/record-events";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { withTmp } from "../store/helpers";

const AGENT_JS = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");

function start(dir: string, store: ThreadStore, env: Record<string, string>) {
  const spec = { id: "fake-stdio", displayName: "Fake stdio", command: process.execPath, args: [AGENT_JS], env };
  return ThreadSession.start({
    store,
    agent: { id: spec.id, name: spec.displayName, command: spec.command, args: spec.args },
    cwd: dir,
    live: { flushMs: 0 },
    createRuntime: () => createAgentRuntime({ agent: spec, cwd: dir }),
  });
}

/** Resolves once the running turn has said `text` (the agent is inside its turn). */
const said = (session: ThreadSession, text: string) =>
  new Promise<void>((resolve) => {
    const sub = session.onEvent((e) => {
      if (e.type === "text" && e.text.includes(text)) {
        sub.dispose();
        resolve();
      }
    });
  });

test("a message steered into a running turn is taken by the agent and recorded as steered", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const session = await start(dir, store, { FAKE_AGENT_STEERING: "1" });
    try {
      assert.equal(steeringSupported(session.capabilities), true);
      const events: RuntimeEvent[] = [];
      session.onEvent((e) => events.push(e));
      const sleeping = said(session, "sleeping");
      const turn = session.prompt("sleep 60000");
      await sleeping;
      assert.equal(await session.steer("also check the tests"), "injected");
      const result = await turn;
      assert.equal(result.stopReason, "end_turn");
      const steered = events.find((e) => e.type === "user_text");
      assert.deepEqual(steered && { ...steered, messageId: "" }, {
        type: "user_text",
        text: "also check the tests",
        messageId: "",
        steered: true,
      });
      assert.ok(events.some((e) => e.type === "text" && e.text === "steered: also check the tests"));
      await session.close();
      const { records, metadata } = store.read(session.threadId);
      const users = records.filter((r) => r.kind === "user_message");
      assert.deepEqual(
        users.map((r) => [r.text, r.steered ?? false]),
        [
          ["sleep 60000", false],
          ["also check the tests", true],
        ],
      );
      assert.equal(metadata.counters.userMessages, 2);
      assert.equal(metadata.counters.turns, 1, "a steered message is no turn of its own");
      const replayed = recordsToEvents(records).filter((e) => e.type === "user_text");
      assert.equal(replayed[1]?.type === "user_text" && replayed[1].steered, true);
    } finally {
      await session.close();
    }
  }));

test("with no turn running, steering answers promptRequired and records nothing", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const session = await start(dir, store, { FAKE_AGENT_STEERING: "1" });
    try {
      assert.equal(await session.steer("too late"), "promptRequired");
      await session.close();
      assert.equal(store.read(session.threadId).records.filter((r) => r.kind === "user_message").length, 0);
    } finally {
      await session.close();
    }
  }));

test("an agent that does not advertise steering is never sent the message: a clear error, the turn goes on", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const session = await start(dir, store, {});
    try {
      assert.equal(steeringSupported(session.capabilities), false);
      const sleeping = said(session, "sleeping");
      const turn = session.prompt("sleep 300");
      await sleeping;
      await assert.rejects(session.steer("hurry"), /Fake stdio does not support steering: the message stays queued/);
      assert.equal((await turn).stopReason, "end_turn");
      const sent = session.runtime as unknown as { protocolLog: { entries(): { direction: string; text: string }[] } };
      assert.ok(!sent.protocolLog.entries().some((e) => e.text.includes("_session/steering")));
    } finally {
      await session.close();
    }
  }));
