import { test } from "node:test";
import assert from "node:assert/strict";
import { recordsToEvents } from "../../../../src/core/thread/record-events";
import { ThreadModel } from "../../../../src/webview/thread/model";
import { emptyContext } from "../../../../src/webview/thread/transcript/context";
import { renderBlockEntry as render } from "../../../../src/webview/thread/transcript/entries";

const renderEntry = (e: Parameters<typeof render>[0]) => render(e, emptyContext());

test("streamed chunks of one stream merge into one entry; a new stream starts a new one", () => {
  const m = new ThreadModel();
  m.apply({ type: "text", stream: "output", text: "Hel" });
  m.apply({ type: "text", stream: "output", text: "lo" });
  m.apply({ type: "text", stream: "thought", text: "hmm" });
  m.apply({ type: "text", stream: "output", text: "again" });
  assert.deepEqual(
    m.entries.map((e) => e.kind),
    ["agent", "thought", "agent"],
  );
  assert.equal((m.entries[0] as { text: string }).text, "Hello");
});

test("tool calls are keyed by id and updated in place, marking the entry dirty", () => {
  const m = new ThreadModel();
  const call = {
    toolCallId: "t1",
    title: "Run ls",
    kind: "execute" as const,
    status: "pending" as const,
    content: [],
    locations: [],
  };
  m.apply({ type: "tool_call", toolCall: call });
  m.dirty.clear();
  m.apply({ type: "tool_call", toolCall: { ...call, status: "completed" } });
  assert.equal(m.entries.length, 1);
  assert.deepEqual([...m.dirty], [0]);
  assert.equal(m.entries[0].version, 1);
  assert.match(renderEntry(m.entries[0]), /status-completed/);
});

test("a permission prompt renders the agent's own options and collapses to one line once answered", () => {
  const m = new ThreadModel();
  m.addPrompt({
    requestId: "r1",
    title: "Write a.txt",
    kind: "edit",
    options: [{ optionId: "y", name: "Allow <once>", kind: "allow_once" }],
    reviewPath: "/w/a.txt",
  });
  const html = renderEntry(m.entries[0]);
  assert.match(html, /Allow &lt;once&gt;/);
  assert.match(html, /perm-review/);
  assert.deepEqual(
    m.pendingPrompts().map((p) => p.view.requestId),
    ["r1"],
  );
  m.resolvePrompt("r1", "y");
  const answered = renderEntry(m.entries[0]);
  assert.doesNotMatch(answered, /<button/);
  assert.match(answered, /class="permission answered"[^>]*>.*Allow &lt;once&gt;/);
  assert.deepEqual(m.pendingPrompts(), []);
});

test("a diff tool call renders removed and added lines", () => {
  const html = renderEntry({
    kind: "tool",
    version: 0,
    call: {
      toolCallId: "e",
      title: "Edit",
      kind: "edit",
      status: "completed",
      locations: [],
      content: [{ type: "diff", path: "/w/f.txt", oldText: "a\nb\n", newText: "a\nB\n" }],
    },
  });
  assert.match(html, /class="del">- b</);
  assert.match(html, /class="add">\+ B</);
});

test("stored records become the same events a live session produced", () => {
  const ts = "2026-01-01T00:00:00.000Z";
  const events = recordsToEvents([
    { v: 1, ts, kind: "user_message", messageId: "u", text: "hi" },
    { v: 1, ts, kind: "agent_message", messageId: "a", text: "hello" },
    { v: 1, ts, kind: "turn_end", stopReason: "end_turn" },
  ] as never);
  assert.deepEqual(
    events.map((e) => e.type),
    ["user_text", "text", "done"],
  );
  const m = new ThreadModel();
  for (const e of events) m.apply(e);
  assert.deepEqual(
    m.entries.map((e) => e.kind),
    ["user", "agent", "done"],
  );
});

test("a call left open by a finished turn is unfinished, not cancelled; a cancelled turn's is cancelled; late updates apply", () => {
  // codex-acp: `echo hi` via unified exec streams "hi", then the turn ends without the call's completion.
  const call = {
    toolCallId: "c1",
    title: "echo hi",
    kind: "execute" as const,
    status: "in_progress" as const,
    content: [],
    locations: [],
    terminalOutput: "hi\n",
  };
  const m = new ThreadModel();
  m.apply({ type: "user_text", text: "run `echo hi`" });
  m.apply({ type: "tool_call", toolCall: call });
  m.apply({ type: "done", stopReason: "end_turn" });
  const card = () => m.entries.find((e) => e.kind === "tool") as { call: { status: string } };
  assert.equal(card().call.status, "unfinished");
  assert.match(renderEntry(m.entries[1]), /no end reported/);
  assert.match(renderEntry(m.entries[1]), /hi/);
  m.apply({ type: "tool_call", toolCall: { ...call, status: "completed" } });
  assert.equal(card().call.status, "completed");

  const c = new ThreadModel();
  c.apply({ type: "user_text", text: "run `sleep 9`" });
  c.apply({ type: "tool_call", toolCall: { ...call, toolCallId: "c2" } });
  c.apply({ type: "done", stopReason: "cancelled" });
  assert.equal((c.entries.find((e) => e.kind === "tool") as { call: { status: string } }).call.status, "cancelled");
});

test("consecutive agent messages (other message ids) are separate entries; chunks of one message merge", () => {
  const m = new ThreadModel();
  m.apply({ type: "text", stream: "output", text: "see [the docs](https://example.com/a)", messageId: "m1" });
  m.apply({ type: "text", stream: "output", text: " too", messageId: "m1" });
  m.apply({ type: "text", stream: "output", text: "Next message", messageId: "m2" });
  m.apply({ type: "text", stream: "output", text: " without ids", messageId: undefined });
  assert.deepEqual(
    m.entries.map((e) => (e.kind === "agent" ? e.text : e.kind)),
    ["see [the docs](https://example.com/a) too", "Next message without ids"],
  );
});

test("a compaction is one notice that follows its progress, with the summary it streamed", () => {
  const m = new ThreadModel();
  m.apply({ type: "compaction", compactionId: "c1", status: "in_progress" });
  assert.match(renderEntry(m.entries[0]), /Compacting context…/);
  m.apply({ type: "compaction", compactionId: "c1", status: "summary_chunk", summary: "We fixed " });
  m.apply({ type: "compaction", compactionId: "c1", status: "summary_chunk", summary: "the cache." });
  m.apply({ type: "compaction", compactionId: "c1", status: "completed" });
  m.apply({ type: "compaction", compactionId: "c2", status: "failed" });
  assert.equal(m.entries.length, 2);
  assert.match(renderEntry(m.entries[0]), /<b>Context compacted<\/b> We fixed the cache\./);
  assert.match(renderEntry(m.entries[1]), /notice warning.*Context compaction failed/s);
});

test("a person's answer from the records is drawn on its tool's card naming who answered; one the panel asked, once", () => {
  const call = { toolCallId: "w1", title: "Write a.txt", kind: "edit" as const, status: "completed" as const };
  const decision = {
    toolCallId: "w1",
    title: "Write a.txt",
    kind: "edit" as const,
    optionId: "yes",
    optionKind: "allow_once" as const,
    decidedBy: "user" as const,
    answeredBy: "acp-threads answer (pid 12)",
    options: [{ optionId: "yes", name: "yes", kind: "allow_once" as const }],
  };
  const read = new ThreadModel(); // a reopened panel: the records' events only
  read.apply({ type: "tool_call", toolCall: { ...call, content: [], locations: [] } });
  read.apply({ type: "permission", decision });
  assert.equal(read.entries.length, 1);
  assert.match(renderEntry(read.entries[0]), /class="muted answered-by">answered by acp-threads answer \(pid 12\)</);
  const live = new ThreadModel(); // the panel showed the request: its answered card says it, the decision adds nothing
  live.apply({ type: "tool_call", toolCall: { ...call, status: "pending", content: [], locations: [] } });
  live.addPrompt({ requestId: "r1", toolCallId: "w1", title: "Write a.txt", kind: "edit", options: decision.options });
  live.resolvePrompt("r1", "yes");
  live.apply({ type: "permission", decision });
  assert.equal(live.entries.length, 1);
  assert.equal(renderEntry(live.entries[0]).match(/class="permission answered/g)?.length, 1);
});
