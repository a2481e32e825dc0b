import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { ToolCallState } from "../../../../src/core/model/events";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { conversation } from "../../../../src/core/thread/conversation";
import { LiveThread, titleFrom } from "../../../../src/core/thread/live-thread";
import { recordsToEvents } from "../../../../src/core/thread/record-events";
import { startInput, withTmp } from "../store/helpers";

function live(dir: string, opts = {}) {
  const store = new ThreadStore(join(dir, "home"));
  const h = store.create(startInput(dir));
  return { store, lt: new LiveThread(h, store.readPath(h.path).metadata, { flushMs: 0, ...opts }) };
}

const tool = (status: ToolCallState["status"], id = "c1"): ToolCallState => ({
  toolCallId: id,
  title: "Edit a.ts",
  kind: "edit",
  status,
  content: [],
  locations: [],
});

test("a thousand streamed chunks of one message become one agent_message record", () =>
  withTmp((dir) => {
    const { store, lt } = live(dir);
    lt.beginTurn("write a poem");
    for (let i = 0; i < 1000; i++) lt.record({ type: "text", stream: "output", text: `w${i} ` });
    lt.record({ type: "done", stopReason: "end_turn" });
    lt.close();
    const recs = store.read(lt.threadId).records;
    const msgs = recs.filter((r) => r.kind === "agent_message");
    assert.equal(msgs.length, 1);
    assert.equal((msgs[0] as { text: string }).text.split(" ").length - 1, 1000);
    assert.deepEqual(
      recs.map((r) => r.kind).filter((k) => k !== "meta_patch"),
      ["thread_start", "user_message", "agent_message", "turn_end"],
    );
  }));

test("text is flushed on a change of stream, a tool call and the size limit, keeping message ids", () =>
  withTmp((dir) => {
    const { store, lt } = live(dir, { flushBytes: 10 });
    lt.beginTurn("go");
    lt.record({ type: "text", stream: "thought", text: "think" });
    lt.record({ type: "text", stream: "output", text: "abc" });
    lt.record({ type: "tool_call", toolCall: tool("in_progress") });
    lt.record({ type: "text", stream: "output", text: "0123456789abcdef", messageId: "big" });
    lt.record({ type: "text", stream: "output", text: "tail", messageId: "big" });
    lt.record({ type: "done", stopReason: "end_turn" });
    lt.close();
    const recs = store.read(lt.threadId).records;
    const kinds = recs.map((r) => r.kind).filter((k) => k !== "meta_patch");
    assert.deepEqual(kinds, [
      "thread_start",
      "user_message",
      "thought",
      "agent_message",
      "agent_message",
      "agent_message",
      "tool_call",
      "turn_end",
    ]);
    const conv = conversation(recs).filter((e) => e.role === "assistant");
    assert.deepEqual(
      conv.map((e) => e.text),
      ["abc", "0123456789abcdeftail"],
      "size-flushed parts join back by message id",
    );
  }));

test("tool calls are written once in their final state, and still-open ones at turn end", () =>
  withTmp((dir) => {
    const { store, lt } = live(dir);
    lt.beginTurn("go");
    lt.record({ type: "tool_call", toolCall: tool("pending") });
    lt.record({ type: "tool_call", toolCall: tool("in_progress") });
    lt.record({ type: "tool_call", toolCall: tool("completed") });
    lt.record({ type: "tool_call", toolCall: tool("in_progress", "c2") });
    lt.record({ type: "done", stopReason: "cancelled" });
    lt.close();
    const read = store.read(lt.threadId);
    const tools = read.records.flatMap((r) =>
      r.kind === "tool_call" ? [`${r.toolCall.toolCallId}:${r.toolCall.status}`] : [],
    );
    assert.deepEqual(tools, ["c1:completed", "c2:in_progress"]);
    assert.equal(read.metadata.counters.toolCalls, 2);
  }));

test("observations become explicit meta_patch records: title, status and counters", () =>
  withTmp((dir) => {
    const { store, lt } = live(dir);
    lt.beginTurn("  Fix the   flaky test\nin CI please ");
    assert.equal(store.readMetadata(lt.threadId).status, "live");
    lt.record({ type: "text", stream: "output", text: "ok" });
    lt.record({ type: "done", stopReason: "end_turn" });
    let meta = store.readMetadata(lt.threadId);
    assert.equal(meta.title, "Fix the flaky test in CI please");
    assert.equal(meta.status, "idle");
    assert.deepEqual(meta.counters, { turns: 1, userMessages: 1, agentMessages: 1, toolCalls: 0 });
    lt.record({ type: "session_info", title: "Agent title" });
    lt.beginTurn("second");
    lt.record({ type: "done", stopReason: "end_turn" });
    lt.close("done");
    meta = store.readMetadata(lt.threadId);
    assert.equal(meta.title, "Agent title", "the agent's session_info title wins over the first message");
    assert.equal(meta.status, "done");
    assert.equal(meta.counters.turns, 2);
    const patches = store.read(lt.threadId).records.filter((r) => r.kind === "meta_patch");
    assert.ok(patches.length <= 6, `one patch per observation point, got ${patches.length}`);
  }));

test("a user rename (while the session holds the thread) is never replaced by the agent's titles, after a reload too", () =>
  withTmp((dir) => {
    const { store, lt } = live(dir);
    lt.beginTurn("first prompt");
    lt.record({ type: "done", stopReason: "end_turn" });
    store.rename(lt.threadId, "  My name  ");
    assert.equal(lt.metadata.titleByUser, true, "the live thread follows the rename written through its handle");
    lt.record({ type: "session_info", title: "Agent title" });
    assert.equal(lt.metadata.title, "My name");
    lt.close("done");
    const meta = store.readMetadata(lt.threadId);
    assert.deepEqual([meta.title, meta.titleByUser], ["My name", true]);
    // a reopened session keeps honouring it
    const again = new LiveThread(store.open(lt.threadId), meta, { flushMs: 0 });
    again.record({ type: "session_info", title: "Another agent title" });
    assert.equal(again.metadata.title, "My name");
    // clearing the name hands the title back to the agent
    store.rename(lt.threadId, "");
    again.record({ type: "session_info", title: "Agent title 2" });
    again.close("done");
    assert.deepEqual(
      [store.readMetadata(lt.threadId).title, store.readMetadata(lt.threadId).titleByUser],
      ["Agent title 2", false],
    );
  }));

test("compactions, permissions, plans, usage, errors and the model are recorded", () =>
  withTmp((dir) => {
    const { store, lt } = live(dir);
    lt.beginTurn("go");
    lt.record({ type: "plan", entries: [{ content: "a", priority: "low", status: "pending" }] });
    lt.record({ type: "plan", entries: [{ content: "a", priority: "low", status: "completed" }] });
    lt.record({ type: "usage", used: 5, size: 50 });
    lt.record({ type: "compaction", compactionId: "w1", status: "completed", summary: "earlier stuff" });
    lt.record({
      type: "permission",
      decision: {
        toolCallId: "c",
        title: "Run",
        kind: "execute",
        optionId: null,
        optionKind: null,
        decidedBy: "cancelled",
        options: [],
      },
    });
    lt.record({ type: "error", message: "agent said no" });
    lt.record({
      type: "config_options",
      options: [{ id: "m", name: "Model", category: "model", type: "select", currentValue: "gpt-5", options: [] }],
    });
    lt.endTurn("refusal");
    lt.close();
    const recs = store.read(lt.threadId).records;
    const plans = recs.filter((r) => r.kind === "plan");
    assert.equal(plans.length, 1, "only the latest plan of a turn");
    assert.ok(recs.some((r) => r.kind === "compaction" && r.windowId === "w1" && r.summary === "earlier stuff"));
    assert.ok(recs.some((r) => r.kind === "permission" && r.decidedBy === "cancelled"));
    assert.ok(recs.some((r) => r.kind === "usage" && r.used === 5));
    assert.ok(recs.some((r) => r.kind === "error" && r.message === "agent said no"));
    assert.equal(store.readMetadata(lt.threadId).model, "gpt-5", "the model config option becomes metadata");
  }));

test("text still streaming is flushed after the time limit so a crash loses little", () =>
  withTmp(async (dir) => {
    const { store, lt } = live(dir, { flushMs: 20 });
    lt.beginTurn("go");
    lt.record({ type: "text", stream: "output", text: "partial", messageId: "m" });
    await new Promise((r) => setTimeout(r, 80));
    assert.ok(store.read(lt.threadId).records.some((r) => r.kind === "agent_message" && r.text === "partial"));
    lt.close();
  }));

test("titles are one line, bounded and redacted", () => {
  assert.equal(titleFrom("a\n\nb"), "a b");
  assert.equal(titleFrom("x".repeat(200))!.length, 80);
  assert.equal(titleFrom("key sk-abcdefghijklmnopqrstuvwxyz"), "key [REDACTED]");
  assert.equal(titleFrom("   "), null);
});

test("a permission keeps the rule and reason that decided it and its outside paths, for the card after a reload (#33)", () =>
  withTmp((dir) => {
    const { store, lt } = live(dir);
    lt.beginTurn("go");
    lt.record({
      type: "permission",
      decision: {
        toolCallId: "w",
        title: "Write ~/.bashrc",
        kind: "edit",
        optionId: "no",
        optionKind: "reject_once",
        decidedBy: "policy",
        options: [],
        reason: "refused: outside the workspace (nobody can be asked)",
        outside: ["/root/.bashrc"],
      },
    });
    lt.record({
      type: "permission",
      decision: {
        toolCallId: "t",
        title: "npm test",
        kind: "execute",
        optionId: "ok",
        optionKind: "allow_once",
        decidedBy: "remembered",
        options: [],
        rule: 'allow execute "npm test"',
        reason: "allowed by rule: npm test",
      },
    });
    lt.endTurn("end_turn");
    lt.close();
    const decisions = recordsToEvents(store.read(lt.threadId).records).flatMap((e) =>
      e.type === "permission" ? [e.decision] : [],
    );
    assert.deepEqual(
      decisions.map((d) => [d.rule, d.reason, d.outside]),
      [
        [undefined, "refused: outside the workspace (nobody can be asked)", ["/root/.bashrc"]],
        ['allow execute "npm test"', "allowed by rule: npm test", undefined],
      ],
    );
  }));

test("hostile: a permission keeps the chosen option's name, env values and keys left out; read back as the card's name", () =>
  withTmp((dir) => {
    const { store, lt } = live(dir);
    lt.beginTurn("go");
    const name = "Yes, and don't ask again for `OPENAI_API_KEY=sk-proj-Zq8vR2mN4xT6yW1bC3dF5gH7 DB=hunter22 npm test`";
    const option = { optionId: "proceed_always", name, kind: "allow_always" as const };
    const decision = { toolCallId: "t", title: "npm test", kind: "execute" as const, options: [option] };
    const answered = { ...decision, optionId: "proceed_always", optionKind: "allow_always" as const };
    lt.record({ type: "permission", decision: { ...answered, optionName: name, decidedBy: "user" } });
    lt.record({
      type: "permission",
      decision: { ...decision, optionId: null, optionKind: null, decidedBy: "cancelled" },
    });
    lt.endTurn("end_turn");
    lt.close();
    const label = "Yes, and don't ask again for `OPENAI_API_KEY=… DB=… npm test`";
    const file = readFileSync(store.pathFor(lt.threadId), "utf8");
    assert.ok(!file.includes("sk-proj") && !file.includes("hunter22"), file);
    const records = store.read(lt.threadId).records.filter((r) => r.kind === "permission");
    assert.deepEqual(
      records.map((r) => (r.kind === "permission" ? r.optionName : "")),
      [label, undefined],
    );
    const [d] = recordsToEvents(records).flatMap((e) => (e.type === "permission" ? [e.decision] : []));
    assert.deepEqual(
      [d?.optionName, d?.options],
      [label, [{ optionId: "proceed_always", name: label, kind: "allow_always" }]],
    );
  }));

test("an older permission record (no optionName) reads back named by its id", () => {
  const r = { v: 1, ts: "2026-11-29T00:00:00.000Z", kind: "permission", toolCallId: "t", title: "npm test" } as const;
  const older = { ...r, toolKind: "execute", optionId: "yes", optionKind: "allow_once", decidedBy: "user" } as const;
  const [e] = recordsToEvents([older]);
  assert.ok(e?.type === "permission");
  assert.equal(e.decision.optionName, undefined);
  assert.deepEqual(e.decision.options, [{ optionId: "yes", name: "yes", kind: "allow_once" }]);
});
