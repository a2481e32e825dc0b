import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { ContentBlock, PromptRequest, SessionConfigOption } from "@agentclientprotocol/sdk";
import type { AgentRuntime } from "../../../src/core/acp/runtime";
import type { RuntimeEvent } from "../../../src/core/model/events";
import { ThreadSession } from "../../../src/core/session";
import { newThreadId } from "../../../src/core/store/thread-id";
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

test("closing a session whose turn is still starting never sends the prompt (an agent ignores an early cancel)", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const seen: string[] = [];
    const session = await ThreadSession.start(opts(dir, store, echoScript(seen)));
    const turn = session.prompt("long task"); // still starting: the prompt is not on the wire yet
    await session.close();
    assert.equal((await turn).stopReason, "cancelled");
    assert.deepEqual(seen, [], "the agent never got the prompt, so it cannot run the turn after the stop");
    const read = store.read(session.threadId);
    assert.ok(read.records.some((r) => r.kind === "turn_end" && r.stopReason === "cancelled"));
  }));

test("a new thread takes the id its host gives it, so a view and its stored thread share one id", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const threadId = newThreadId();
    const session = await ThreadSession.start({ ...opts(dir, store, echoScript([])), threadId });
    assert.equal(session.threadId, threadId);
    await session.prompt("hi");
    await session.close();
    assert.equal(store.readMetadata(threadId).counters.turns, 1);
  }));

test("a prompt of content blocks reaches the agent as blocks; the thread records what the user said", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const got: PromptRequest["prompt"][] = [];
    const script: FakeAgentScript = {
      prompt(t) {
        got.push(t.params.prompt);
        return "end_turn";
      },
    };
    const session = await ThreadSession.start(opts(dir, store, script));
    const blocks: ContentBlock[] = [
      { type: "text", text: "explain " },
      { type: "resource_link", uri: "file:///ws/a.ts", name: "a.ts" },
    ];
    await session.prompt(blocks);
    await session.prompt(blocks, { recordText: "explain @a.ts (lines 1-3)" });
    await session.close();
    assert.deepEqual(got, [blocks, blocks]);
    const users = store.read(session.threadId).records.flatMap((r) => (r.kind === "user_message" ? [r.text] : []));
    assert.deepEqual(users, ["explain @a.ts", "explain @a.ts (lines 1-3)"]);
  }));

test("a seeded prompt of blocks gets the history as a text block in front", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const seen: string[] = [];
    const first = await ThreadSession.start(opts(dir, store, echoScript(seen)));
    await first.prompt("remember pineapple");
    await first.close();
    const got: PromptRequest["prompt"][] = [];
    const resumed = await ThreadSession.resume(
      opts(dir, store, {
        prompt(t) {
          got.push(t.params.prompt);
          return "end_turn";
        },
      }),
      first.threadId,
    );
    await resumed.prompt([{ type: "text", text: "which fruit?" }]);
    await resumed.close();
    assert.equal(got[0]!.length, 2);
    assert.match((got[0]![0] as { text: string }).text, /User: remember pineapple/);
    assert.deepEqual(got[0]![1], { type: "text", text: "which fruit?" });
  }));

test("session info and config options go through the session: a model change is recorded and emitted", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const model = (value: string): SessionConfigOption => ({
      id: "model",
      name: "Model",
      category: "model",
      type: "select",
      currentValue: value,
      options: [
        { value: "small", name: "Small" },
        { value: "large", name: "Large" },
      ],
    });
    const session = await ThreadSession.start(opts(dir, store, { ...echoScript([]), configOptions: [model("small")] }));
    assert.equal(session.sessionInfo?.configOptions?.[0]?.currentValue, "small");
    assert.equal(session.metadata.model, "small");
    const events: RuntimeEvent[] = [];
    session.onEvent((e) => events.push(e));
    await session.setConfigOption("model", "large");
    await session.close();
    assert.equal(events[0]?.type, "config_options");
    assert.equal(store.readMetadata(session.threadId).model, "large");
  }));

test("start gives up when its signal aborts: the agent is stopped and no thread is left open", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const runtimes: AgentRuntime[] = [];
    const stop = new AbortController();
    stop.abort();
    await assert.rejects(
      ThreadSession.start(opts(dir, store, echoScript([]), runtimes), { signal: stop.signal }),
      /stopped/,
    );
    assert.ok(["closed", "failed"].includes(runtimes[0]!.getStatus()), "the agent is stopped");
    assert.deepEqual(store.list(), []);
  }));

test("best-effort recording: a thread that cannot be created is reported once and the session still runs", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    mkdirSync(home);
    writeFileSync(join(home, "threads"), "not a folder"); // the store cannot create any thread file
    const store = new ThreadStore(home);
    const errors: unknown[] = [];
    const seen: string[] = [];
    const session = await ThreadSession.start({
      ...opts(dir, store, echoScript(seen)),
      onRecordError: (e) => errors.push(e),
    });
    assert.equal(errors.length, 1);
    assert.equal(session.recorded, false);
    assert.equal((await session.prompt("still works")).stopReason, "end_turn");
    assert.equal((await session.prompt("twice")).stopReason, "end_turn");
    await session.close();
    assert.deepEqual(seen, ["still works", "twice"]);
    assert.equal(errors.length, 1, "reported once");
  }));

test("without best-effort recording a thread that cannot be created fails the start and stops the agent", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    mkdirSync(home);
    writeFileSync(join(home, "threads"), "not a folder");
    const runtimes: AgentRuntime[] = [];
    await assert.rejects(ThreadSession.start(opts(dir, new ThreadStore(home), echoScript([]), runtimes)));
    assert.ok(["closed", "failed"].includes(runtimes[0]!.getStatus()), "the agent is stopped");
  }));
