import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import type { ToolCallState } from "../../../../src/core/model/events";
import { buildHandoffBrief, handoffTitle, renderHandoffBrief } from "../../../../src/core/handoff/brief";
import { handedOffFrom, linkHandoff } from "../../../../src/core/handoff/link";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { LiveThread } from "../../../../src/core/thread/live-thread";
import { startInput, withTmp } from "../store/helpers";

const tool = (
  id: string,
  kind: ToolCallState["kind"],
  title: string,
  extra: Partial<ToolCallState> = {},
): ToolCallState => ({
  toolCallId: id,
  title,
  kind,
  status: "completed",
  content: [],
  locations: [],
  ...extra,
});

test("the handoff brief carries the goal, plan, files touched, commands, last message and what was left open", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir, { title: "Fix the parser" }));
    const lt = new LiveThread(h, store.readPath(h.path).metadata, { flushMs: 0 });
    lt.beginTurn("make the parser accept trailing commas");
    lt.record({
      type: "plan",
      entries: [
        { content: "find the grammar", status: "completed", priority: "high" },
        { content: "allow trailing commas", status: "in_progress", priority: "high" },
        { content: "add tests", status: "pending", priority: "medium" },
      ],
    });
    lt.record({
      type: "tool_call",
      toolCall: tool("r1", "read", "Read grammar.ts", { locations: [{ path: join(dir, "src/grammar.ts") }] }),
    });
    lt.record({
      type: "tool_call",
      toolCall: tool("e1", "edit", "Edit grammar.ts", {
        content: [{ type: "diff", path: join(dir, "src/grammar.ts"), oldText: "a", newText: "b" }],
      }),
    });
    lt.record({
      type: "tool_call",
      toolCall: tool("x1", "execute", "npm test", { rawInput: { command: "npm test" } }),
    });
    lt.record({
      type: "permission",
      decision: {
        toolCallId: "w1",
        title: "Write test/parser.test.ts",
        kind: "edit",
        optionId: null,
        optionKind: null,
        decidedBy: "cancelled",
        options: [],
      },
    });
    lt.record({ type: "tool_call", toolCall: tool("w1", "edit", "Write test/parser.test.ts", { status: "pending" }) });
    lt.record({ type: "text", stream: "output", text: "The grammar now accepts trailing commas; " });
    lt.record({ type: "text", stream: "output", text: "tests are next." });
    lt.endTurn("cancelled");
    lt.beginTurn("also keep the old error messages");
    lt.endTurn("end_turn");
    lt.close();
    const { metadata, records } = store.read(lt.threadId);
    const brief = buildHandoffBrief(metadata, records);
    assert.equal(brief.goal, "make the parser accept trailing commas");
    assert.equal(brief.latestRequest, "also keep the old error messages");
    assert.deepEqual(brief.files, [{ path: "src/grammar.ts", how: ["changed", "read"] }]);
    assert.deepEqual(brief.commands, ["npm test"]);
    assert.equal(brief.lastAssistantMessage, "The grammar now accepts trailing commas; tests are next.");
    assert.deepEqual(brief.openQuestions, [
      "Write test/parser.test.ts (edit): asked, never answered",
      "Write test/parser.test.ts was left unfinished",
    ]);
    const text = renderHandoffBrief(brief);
    assert.match(text, /## Plan\n- \[x\] find the grammar\n- \[~\] allow trailing commas\n- \[ \] add tests/);
    assert.match(text, /## Files touched so far\n- src\/grammar\.ts \(changed, read\)/);
    assert.match(text, /## Last message from Fake\nThe grammar now accepts/);
    assert.match(text, new RegExp(`Handed off from ACP Threads thread ${lt.threadId}`));
  }));

test("a handoff links both threads: the new one by origin, the old one by its successor list", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const from = store.create(startInput(dir));
    from.close();
    const to = store.create(startInput(dir, { origin: { kind: "handoff", source: from.threadId } }));
    to.close();
    assert.equal(linkHandoff(store, from.threadId, to.threadId), undefined);
    assert.equal(linkHandoff(store, from.threadId, to.threadId), undefined, "idempotent");
    assert.deepEqual(store.read(from.threadId).metadata.handedOffTo, [to.threadId]);
    assert.equal(handedOffFrom(store.read(to.threadId).metadata), from.threadId);
    // the old thread held by a writer elsewhere: the link is reported, nothing breaks
    const held = store.open(from.threadId);
    const other = new ThreadStore(join(dir, "home"));
    assert.match(linkHandoff(other, from.threadId, "01x") ?? "", /open for writing|being written|held/);
    held.close();
  }));

test("the new thread's title: 'Handoff: <source title>', one prefix however often handed off, clipped", () => {
  const agent = { id: "codex", name: "Codex" } as never;
  assert.equal(handoffTitle({ title: "fix the parser", agent }), "Handoff: fix the parser");
  assert.equal(handoffTitle({ title: "Handoff: fix the parser", agent }), "Handoff: fix the parser");
  assert.equal(handoffTitle({ title: null, agent }, "make\n  the tests pass"), "Handoff: make the tests pass");
  assert.equal(handoffTitle({ title: null, agent }, ""), "Handoff from Codex");
  const long = handoffTitle({ title: "x".repeat(200), agent });
  assert.equal(long.length, 80);
  assert.ok(long.endsWith("…"));
});
