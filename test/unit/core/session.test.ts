import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import type { PromptRequest } from "@agentclientprotocol/sdk";
import type { AgentRuntime } from "../../../src/core/acp/runtime";
import type { RuntimeEvent } from "../../../src/core/model/events";
import { ThreadSession } from "../../../src/core/session";
import { ThreadStore } from "../../../src/core/store/thread-store";
import { startFake, type FakeAgentScript } from "../../fixtures/fake-agents/in-process";
import { withTmp } from "./store/helpers";

const agentRef = { id: "fake", name: "Fake", command: "/bin/false" };
const promptText = (p: PromptRequest) => p.prompt.map((b) => (b.type === "text" ? b.text : "")).join("");

/** A fake agent that answers "echo: <prompt>" in three chunks and remembers every prompt it got. */
function echoScript(seen: string[], extra: Partial<FakeAgentScript> = {}): FakeAgentScript {
  return {
    async prompt(t) {
      const text = promptText(t.params);
      seen.push(text);
      for (const part of ["echo", ": ", text.split("\n").at(-1)!]) await t.say(part);
      return "end_turn";
    },
    ...extra,
  };
}

function opts(dir: string, store: ThreadStore, script: FakeAgentScript, runtimes: AgentRuntime[] = []) {
  return {
    store,
    agent: agentRef,
    cwd: dir,
    live: { flushMs: 0 },
    createRuntime: () => {
      const rt = startFake(script, { cwd: dir });
      runtimes.push(rt);
      return rt;
    },
  };
}

test("a session records each turn into its thread and re-emits the events", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const seen: string[] = [];
    const session = await ThreadSession.start(opts(dir, store, echoScript(seen)));
    const events: RuntimeEvent[] = [];
    const statuses: string[] = [];
    session.onEvent((e) => events.push(e));
    session.onStatus((s) => statuses.push(s));
    const result = await session.prompt("hello there");
    assert.equal(result.stopReason, "end_turn");
    assert.equal(
      events
        .filter((e) => e.type === "text")
        .map((e) => (e as { text: string }).text)
        .join(""),
      "echo: hello there",
    );
    assert.deepEqual(statuses, ["working", "idle"]);
    await session.close();
    const read = store.read(session.threadId);
    assert.equal(read.metadata.agentSessionId, "s1");
    assert.equal(read.metadata.title, "hello there");
    assert.equal(read.metadata.status, "idle");
    const texts = read.records.flatMap((r) =>
      r.kind === "user_message" || r.kind === "agent_message" ? [`${r.kind}:${r.text}`] : [],
    );
    assert.deepEqual(texts, ["user_message:hello there", "agent_message:echo: hello there"]);
  }));

test("resuming a thread uses session/load when the agent supports it, without seeding", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const seen: string[] = [];
    const script = echoScript(seen, { loadSession: true });
    const first = await ThreadSession.start(opts(dir, store, script));
    await first.prompt("one");
    await first.close();
    const resumed = await ThreadSession.resume(opts(dir, store, script), first.threadId);
    assert.equal(resumed.origin, "load");
    assert.equal(resumed.pendingSeed, "");
    await resumed.prompt("two");
    await resumed.close();
    assert.deepEqual(seen, ["one", "two"]);
    assert.equal(store.readMetadata(first.threadId).counters.turns, 2);
  }));

test("resuming with an agent that cannot load seeds a new session from the thread history", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const seen: string[] = [];
    const script = echoScript(seen);
    const first = await ThreadSession.start(opts(dir, store, script));
    await first.prompt("remember the word pineapple");
    await first.close();
    const resumed = await ThreadSession.resume(opts(dir, store, script), first.threadId);
    assert.equal(resumed.origin, "seeded");
    await resumed.prompt("what was the word?");
    await resumed.prompt("thanks");
    await resumed.close();
    assert.match(
      seen[1]!,
      /User: remember the word pineapple[\s\S]*Assistant: echo: remember the word pineapple[\s\S]*what was the word\?$/,
    );
    assert.equal(seen[2], "thanks", "the seed is sent once");
    const users = store
      .read(first.threadId)
      .records.filter((r) => r.kind === "user_message")
      .map((r) => (r as { text: string }).text);
    assert.deepEqual(
      users,
      ["remember the word pineapple", "what was the word?", "thanks"],
      "the seed is not recorded as a message",
    );
  }));

test("after the agent dies the next prompt restarts it through the same ladder", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const seen: string[] = [];
    const runtimes: AgentRuntime[] = [];
    const session = await ThreadSession.start(opts(dir, store, echoScript(seen), runtimes));
    await session.prompt("before the crash");
    await runtimes[0]!.close();
    const result = await session.prompt("after the crash");
    assert.equal(result.stopReason, "end_turn");
    assert.equal(runtimes.length, 2);
    assert.equal(session.origin, "seeded");
    assert.match(seen[1]!, /before the crash[\s\S]*after the crash$/);
    await session.close();
  }));

test("a second session on the same thread is refused while the first is open", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const o = opts(dir, store, echoScript([]));
    const first = await ThreadSession.start(o);
    await assert.rejects(ThreadSession.resume(o, first.threadId), /already open for writing/);
    await first.close();
  }));

test("closing a session mid-turn cancels the turn and keeps what was said so far", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const script: FakeAgentScript = {
      async prompt(t) {
        await t.say("working on it");
        await t.cancelled;
        return "cancelled";
      },
    };
    const session = await ThreadSession.start(opts(dir, store, script));
    const said = new Promise<void>((resolve) => session.onEvent((e) => e.type === "text" && resolve()));
    const turn = session.prompt("long task");
    await said;
    await session.close();
    assert.equal((await turn).stopReason, "cancelled");
    const read = store.read(session.threadId);
    assert.ok(read.records.some((r) => r.kind === "agent_message" && r.text === "working on it"));
    assert.ok(read.records.some((r) => r.kind === "turn_end" && r.stopReason === "cancelled"));
    assert.equal(read.metadata.status, "idle");
    await assert.rejects(session.prompt("more"), /is closed/);
  }));
