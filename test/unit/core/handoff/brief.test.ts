import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import type { OpView } from "../../../../src/core/ledger/ledger-view";
import type { OpRecord } from "../../../../src/core/ledger/records";
import type { ToolCallState } from "../../../../src/core/model/events";
import { buildHandoffBrief, handoffTitle, renderHandoffBrief } from "../../../../src/core/handoff/brief";
import { handedOffFrom } from "../../../../src/core/handoff/lineage";
import { linkHandoff } from "../../../../src/core/handoff/link";
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
    // the person stopped that turn (Esc): its pending write is not "asked, never answered" (#37 item 8)
    assert.deepEqual(brief.openQuestions, ["Write test/parser.test.ts was not done (the turn was stopped)"]);
    const text = renderHandoffBrief(brief);
    assert.match(text, /## Plan\n- \[x\] find the grammar\n- \[~\] allow trailing commas\n- \[ \] add tests/);
    assert.match(text, /## Files touched so far\n- src\/grammar\.ts \(changed, read\)/);
    assert.match(text, /## Last message from Fake\nThe grammar now accepts/);
    assert.match(text, new RegExp(`Handed off from ACP Threads thread ${lt.threadId}`));
  }));

const state = (id: string) => ({ id, size: 1, stored: true });
const op = (id: string, files: [string, string | null, string | null][], target?: string): OpView => ({
  op: id,
  type: id.startsWith("turn-") ? "turn" : "restore",
  startedAt: "2026-11-28T00:00:00.000Z",
  files: files.map(([path, before, after]) => ({
    path,
    ts: "2026-11-28T00:00:00.000Z",
    before: before === null ? null : state(before),
    after: after === null ? null : state(after),
    via: ["disk"],
    toolCallIds: [],
  })),
  ...(target
    ? {
        summary: {
          v: 1,
          ts: "",
          kind: "op",
          op: id,
          type: "restore",
          cwd: "/",
          startedAt: "",
          status: "done",
          files: 1,
          target: { op: target },
        } satisfies OpRecord,
      }
    : {}),
});

test("changed files come from the ledger: restored, never-written and put-back files are not changed (#37 item 8)", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir, { title: "Tidy" }));
    const lt = new LiveThread(h, store.readPath(h.path).metadata, { flushMs: 0 });
    lt.beginTurn("tidy up");
    const edit = (id: string, file: string, status: ToolCallState["status"]) =>
      lt.record({
        type: "tool_call",
        toolCall: tool(id, "edit", `Edit ${file}`, {
          status,
          content: [{ type: "diff", path: join(dir, file), oldText: "a", newText: "b" }],
        }),
      });
    edit("e1", "kept.ts", "completed");
    edit("e2", "restored.ts", "completed");
    edit("e3", "rejected.ts", "failed");
    edit("e4", "back.ts", "completed");
    lt.record({
      type: "tool_call",
      toolCall: tool("r1", "read", "Read notes.md", { locations: [{ path: join(dir, "notes.md") }] }),
    });
    lt.endTurn("end_turn");
    lt.beginTurn("keep going");
    lt.endTurn("end_turn");
    lt.close();
    const { metadata, records } = store.read(lt.threadId);
    const ledger = {
      ops: [
        op("turn-1", [
          ["kept.ts", "k0", "k1"],
          ["back.ts", "b0", "b1"],
        ]),
        op("turn-2", [
          ["restored.ts", "r0", "r1"],
          ["back.ts", "b1", "b0"],
        ]),
        op("restore-1", [["restored.ts", "r1", "r0"]], "turn-2"),
      ],
    };
    // turn-2 restored: its restored.ts is not changed, but its back.ts put-back is undone too, so back.ts is changed
    assert.deepEqual(buildHandoffBrief(metadata, records, ledger).files, [
      { path: "kept.ts", how: ["changed"] },
      { path: "back.ts", how: ["changed"] },
      { path: "notes.md", how: ["read"] },
    ]);
    // nothing restored: back.ts went back to what it was, so only kept.ts and restored.ts changed
    assert.deepEqual(buildHandoffBrief(metadata, records, { ops: ledger.ops.slice(0, 2) }).files, [
      { path: "kept.ts", how: ["changed"] },
      { path: "restored.ts", how: ["changed"] },
      { path: "notes.md", how: ["read"] },
    ]);
    // no ledger (an older thread): the completed edits stand in; the failed one never wrote anything
    assert.deepEqual(
      buildHandoffBrief(metadata, records).files.map((f) => f.path),
      ["kept.ts", "restored.ts", "back.ts", "notes.md"],
    );
  }));

test("a request left pending by a turn that never ended (a crash, a reload) is still 'asked, never answered'", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir));
    const lt = new LiveThread(h, store.readPath(h.path).metadata, { flushMs: 0 });
    lt.beginTurn("write the file");
    lt.record({
      type: "permission",
      decision: {
        toolCallId: "w1",
        title: "Write a.txt",
        kind: "edit",
        optionId: null,
        optionKind: null,
        decidedBy: "cancelled",
        options: [],
      },
    });
    // read as a crash leaves it: no turn_end (close() would end the turn as cancelled)
    const { metadata, records } = store.read(lt.threadId);
    assert.ok(!records.some((r) => r.kind === "turn_end"));
    assert.deepEqual(buildHandoffBrief(metadata, records).openQuestions, ["Write a.txt (edit): asked, never answered"]);
    lt.close();
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
