// Subagent tool calls: claude-agent-acp 0.101 stamps `_meta.claudeCode.parentToolUseId` on what a subagent (its
// Agent / Task tool) does. The engine keeps it as `parentToolCallId`, the thread records it, the panel nests the
// calls under their parent (an unknown parent leaves a call top-level, never lost), the Markdown export nests
// them, and recall labels a hit inside subagent work.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parentToolCallOf, ToolCallTracker } from "../../../../src/core/acp/normalize";
import type { ToolCallState } from "../../../../src/core/model/events";
import { serializeRecord, stampRecord, type RecordInput, type ThreadRecord } from "../../../../src/core/model/records";
import { openRecall } from "../../../../src/core/recall/recall";
import { homeLayout } from "../../../../src/core/store/paths";
import { recordsToEvents } from "../../../../src/core/thread/record-events";
import { ThreadModel } from "../../../../src/webview/thread/model";
import { emptyContext } from "../../../../src/webview/thread/transcript/context";
import { renderBlockEntry } from "../../../../src/webview/thread/transcript/entries";
import { makeWorld } from "../recall/helpers";

const call = (id: string, over: Partial<ToolCallState> = {}): ToolCallState => ({
  toolCallId: id,
  title: id,
  kind: "read",
  status: "completed",
  content: [],
  locations: [],
  ...over,
});

test("the parent is read from claude's _meta and stays on later updates; bad values are ignored", () => {
  assert.equal(parentToolCallOf({ claudeCode: { parentToolUseId: "toolu_1" } }), "toolu_1");
  assert.equal(parentToolCallOf({ parentToolCallId: "p" }), "p");
  assert.equal(parentToolCallOf({ claudeCode: { parentToolUseId: 42 } }), undefined);
  assert.equal(parentToolCallOf({ claudeCode: "x" }), undefined);
  assert.equal(parentToolCallOf(undefined), undefined);
  const tools = new ToolCallTracker();
  const stamp = { _meta: { claudeCode: { parentToolUseId: "task" } } };
  assert.equal(
    tools.apply({ toolCallId: "c", title: "Read", status: "in_progress", ...stamp }, true)?.parentToolCallId,
    "task",
  );
  assert.equal(tools.apply({ toolCallId: "c", status: "completed" }, false)?.parentToolCallId, "task");
  assert.equal(
    tools.apply({ toolCallId: "self", ...{ _meta: { parentToolCallId: "self" } } }, true)?.parentToolCallId,
    undefined,
  );
});

test("the panel nests a subagent's calls under their parent, collapsed, each with its own status", () => {
  const m = new ThreadModel();
  m.apply({
    type: "tool_call",
    toolCall: call("task", { kind: "other", title: "Task: explore", status: "in_progress" }),
  });
  m.apply({ type: "tool_call", toolCall: call("c1", { parentToolCallId: "task", status: "in_progress" }) });
  m.apply({ type: "tool_call", toolCall: call("c1", { parentToolCallId: "task" }) });
  m.apply({ type: "tool_call", toolCall: call("c2", { parentToolCallId: "task", status: "failed", kind: "search" }) });
  // a subagent's subagent goes into the same card
  m.apply({ type: "tool_call", toolCall: call("c3", { parentToolCallId: "c2", status: "in_progress" }) });
  m.apply({ type: "tool_call", toolCall: call("orphan", { parentToolCallId: "nobody" }) });
  assert.deepEqual(
    m.entries.map((e) => (e.kind === "tool" ? e.call.toolCallId : e.kind)),
    ["task", "orphan"],
    "nested calls are not cards of their own; an unknown parent leaves the call top-level",
  );
  const task = m.entries[0] as Extract<(typeof m.entries)[0], { kind: "tool" }>;
  assert.deepEqual(
    task.children?.map((c) => [c.toolCallId, c.status]),
    [
      ["c1", "completed"],
      ["c2", "failed"],
      ["c3", "in_progress"],
    ],
  );
  const ctx = emptyContext();
  const closed = renderBlockEntry(task, ctx);
  assert.match(closed, /data-expand="task:subagent" aria-expanded="false"/);
  assert.match(closed, /Subagent: 3 tool calls/);
  assert.match(closed, /1 done.*1 failed.*1 running/s);
  assert.doesNotMatch(closed, /subagent-calls/);
  ctx.expanded.add("task:subagent");
  const open = renderBlockEntry(task, ctx);
  assert.equal(open.match(/class="tool status-/g)?.length, 4, "the parent's card and one per nested call");
  assert.match(open, /aria-label="Tool call: c2, failed"/);
  // the turn ends: a nested call left running shows unfinished, like a top-level one
  m.apply({ type: "done", stopReason: "end_turn" });
  assert.deepEqual(
    task.children?.map((c) => c.status),
    ["completed", "failed", "unfinished"],
  );
  assert.equal(task.call.status, "unfinished");
});

test("a nested call that asks for permission moves out to a card of its own", () => {
  const m = new ThreadModel();
  m.apply({ type: "tool_call", toolCall: call("task", { kind: "other", status: "in_progress" }) });
  m.apply({ type: "tool_call", toolCall: call("w", { kind: "edit", parentToolCallId: "task", status: "pending" }) });
  m.addPrompt({ requestId: "r1", toolCallId: "w", title: "Write x", kind: "edit", options: [] } as never);
  assert.deepEqual(
    m.entries.map((e) => (e.kind === "tool" ? e.call.toolCallId : e.kind)),
    ["task", "w"],
  );
  assert.deepEqual((m.entries[0] as { children?: unknown[] }).children, []);
  m.apply({ type: "tool_call", toolCall: call("w", { kind: "edit", parentToolCallId: "task" }) });
  assert.equal((m.entries[1] as { call: ToolCallState }).call.status, "completed", "later updates reach that card");
  assert.equal(m.pendingPrompts().length, 1);
});

test("a stored thread replays a subagent's calls (recorded before their parent ended) nested again", () => {
  const rec = (tc: ToolCallState) => ({ kind: "tool_call", toolCall: tc }) as ThreadRecord;
  const records = [
    rec(call("c1", { parentToolCallId: "task" })),
    rec(call("g1", { parentToolCallId: "c1" })),
    rec(call("lost", { parentToolCallId: "never-recorded" })),
    rec(call("task", { kind: "other" })),
  ];
  const events = recordsToEvents(records);
  assert.deepEqual(
    events.map((e) => (e.type === "tool_call" ? e.toolCall.toolCallId : e.type)),
    ["lost", "task", "c1", "g1"],
  );
  // parents that name each other (bad input) still show, last
  const cyclic = recordsToEvents([
    rec(call("a", { parentToolCallId: "b" })),
    rec(call("b", { parentToolCallId: "a" })),
  ]);
  assert.deepEqual(cyclic.map((e) => (e.type === "tool_call" ? e.toolCall.toolCallId : e.type)).sort(), ["a", "b"]);
  const m = new ThreadModel();
  for (const e of events) m.apply(e);
  assert.deepEqual(
    m.entries.map((e) => (e.kind === "tool" ? [e.call.toolCallId, e.children?.length ?? 0] : e.kind)),
    [
      ["lost", 0],
      ["task", 2],
    ],
  );
});

test("recall says a hit is inside subagent work", () => {
  const w = makeWorld();
  const line = (r: RecordInput) => `${serializeRecord(stampRecord(r))}\n`;
  try {
    const threads = homeLayout(w.home).threadsDir;
    mkdirSync(threads, { recursive: true });
    const tc = (id: string, title: string, parent?: string) =>
      line({
        kind: "tool_call",
        toolCall: call(id, { title, kind: "search", ...(parent ? { parentToolCallId: parent } : {}) }),
      });
    writeFileSync(
      join(threads, "thr-sub-1.jsonl"),
      [
        line({
          kind: "thread_start",
          threadId: "thr-sub-1",
          agent: { id: "claude", name: "Claude", command: "claude-agent-acp" },
          mode: "acp",
          cwd: w.repoA,
          repoRoot: w.repoA,
          gitHead: null,
        }),
        line({ kind: "user_message", messageId: "u1", text: "find the albatross" }),
        tc("sub", "grep marmoset in src", "task"),
        tc("task", "Task: look for the albatross"),
      ].join(""),
    );
    const r = openRecall(w.home);
    try {
      r.syncOwnThreads();
      const res = r.search("marmoset", { repo: w.repoA });
      const msgs = res.sessions[0].windows.flatMap((win) => win.messages);
      const hit = msgs.find((m) => m.hit);
      assert.equal(hit?.tool, "search (subagent)");
      const plain = r.search("albatross", { repo: w.repoA }).sessions[0].windows.flatMap((win) => win.messages);
      assert.ok(
        plain.some((m) => m.hit && m.tool === "search"),
        "the parent call is not tagged",
      );
    } finally {
      r.close();
    }
  } finally {
    w.cleanup();
  }
});
