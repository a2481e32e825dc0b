import assert from "node:assert/strict";
import { test } from "node:test";
import { applyPatch, foldMetadata, initialMetadata } from "../../../../src/core/model/metadata";
import {
  parseRecord,
  serializeRecord,
  stampRecord,
  THREAD_FORMAT_VERSION,
  type RecordInput,
  type ThreadRecord,
  type ThreadStartRecord,
} from "../../../../src/core/model/records";

const start: ThreadStartRecord = {
  v: 1,
  ts: "2026-01-02T03:04:05.000Z",
  kind: "thread_start",
  threadId: "0190a1b2-c3d4-7e5f-8a6b-1c2d3e4f5a6b",
  agent: { id: "codex", name: "Codex", command: "/usr/bin/codex-acp" },
  mode: "acp",
  cwd: "/w",
  repoRoot: "/w",
  gitHead: null,
};

const samples: RecordInput[] = [
  { kind: "user_message", messageId: "u1", text: "hello\nworld ✓" },
  { kind: "agent_message", messageId: "a1", text: "hi" },
  { kind: "thought", messageId: "t1", text: "hmm" },
  {
    kind: "tool_call",
    toolCall: {
      toolCallId: "c1",
      title: "Read",
      kind: "read",
      status: "completed",
      content: [],
      locations: [{ path: "/w/a" }],
    },
  },
  { kind: "plan", entries: [{ content: "step", priority: "high", status: "pending" }] },
  {
    kind: "permission",
    toolCallId: "c1",
    title: "Write",
    toolKind: "edit",
    optionId: "allow",
    optionKind: "allow_once",
    decidedBy: "user",
  },
  { kind: "usage", used: 10, size: 100, cost: null },
  { kind: "compaction", windowId: null, summary: "s" },
  { kind: "exec_output", stream: "stdout", text: "out", bytes: 3 },
  { kind: "exec_exit", exitCode: null, signal: "SIGTERM" },
  { kind: "turn_end", stopReason: "end_turn" },
  { kind: "error", message: "boom", code: -32000 },
  { kind: "meta_patch", patch: { title: null, status: "done", counters: { turns: 2 } } },
];

test("every record kind survives a serialize and parse round trip unchanged", () => {
  for (const input of [start, ...samples]) {
    const rec = "v" in input ? (input as ThreadRecord) : stampRecord(input);
    const line = serializeRecord(rec);
    assert.ok(line.endsWith("\n") && !line.slice(0, -1).includes("\n"), "one line per record");
    const parsed = parseRecord(line.slice(0, -1));
    assert.ok(parsed.ok, `${rec.kind}: ${parsed.ok ? "" : parsed.error}`);
    assert.deepEqual(parsed.record, rec);
    assert.equal(parsed.record.v, THREAD_FORMAT_VERSION);
  }
});

test("bad lines get a clear error instead of an exception", () => {
  const cases: [string, RegExp][] = [
    ["{not json", /invalid JSON/],
    ["[1,2]", /not a JSON object/],
    [JSON.stringify({ ts: start.ts, kind: "turn_end", stopReason: "x" }), /missing format version/],
    [JSON.stringify({ v: 2, ts: start.ts, kind: "turn_end", stopReason: "x" }), /newer.*upgrade ACP Threads/],
    [JSON.stringify({ v: 1, ts: "yesterday", kind: "turn_end", stopReason: "x" }), /timestamp/],
    [JSON.stringify({ v: 1, ts: start.ts, kind: "mystery" }), /unknown record kind 'mystery'/],
    [
      JSON.stringify({ v: 1, ts: start.ts, kind: "user_message", messageId: "u" }),
      /user_message: field 'text' must be string/,
    ],
    [
      JSON.stringify({ v: 1, ts: start.ts, kind: "meta_patch", patch: { status: "sleeping" } }),
      /meta_patch field 'status'/,
    ],
    [JSON.stringify({ v: 1, ts: start.ts, kind: "tool_call", toolCall: {} }), /toolCallId/],
  ];
  for (const [line, re] of cases) {
    const res = parseRecord(line);
    assert.equal(res.ok, false, line);
    assert.match((res as { error: string }).error, re);
  }
});

test("a metadata patch leaves absent fields unchanged and clears fields set to null", () => {
  let meta = initialMetadata({ ...start, title: "first", agentSessionId: "s1" });
  meta = applyPatch(meta, { tags: ["a"], model: "gpt", counters: { turns: 3, userMessages: 3 } });
  assert.equal(meta.title, "first", "absent title stays");
  assert.equal(meta.agentSessionId, "s1");
  meta = applyPatch(meta, { counters: { turns: 4 } });
  assert.deepEqual(
    meta.counters,
    { turns: 4, userMessages: 3, agentMessages: 0, toolCalls: 0 },
    "absent counters stay",
  );
  meta = applyPatch(meta, { title: null, agentSessionId: null, tags: null, model: undefined });
  assert.equal(meta.title, null);
  assert.equal(meta.agentSessionId, null);
  assert.deepEqual(meta.tags, []);
  assert.equal(meta.model, "gpt", "undefined counts as absent");
  assert.equal(applyPatch(meta, { status: "done" }).status, "done");
  assert.equal(applyPatch(meta, { status: null }).status, "idle", "a cleared status is the default");
});

test("folding history uses only thread_start and meta_patch records, never message contents", () => {
  const recs: ThreadRecord[] = [
    start,
    { v: 1, ts: "2026-01-02T03:05:00.000Z", kind: "user_message", messageId: "u", text: "title me" },
    { v: 1, ts: "2026-01-02T03:06:00.000Z", kind: "meta_patch", patch: { status: "live" } },
  ];
  const meta = foldMetadata(recs)!;
  assert.equal(meta.title, null, "the store infers no title");
  assert.equal(meta.status, "live");
  assert.equal(meta.createdAt, start.ts);
  assert.equal(meta.lastActivity, "2026-01-02T03:06:00.000Z");
  assert.equal(foldMetadata(recs.slice(1)), undefined, "no thread_start, no thread");
});

test("a rename is no activity: the thread's last activity stays (#37)", () => {
  const recs: ThreadRecord[] = [
    start,
    { v: 1, ts: "2026-01-02T03:05:00.000Z", kind: "user_message", messageId: "u", text: "hi" },
    { v: 1, ts: "2026-01-05T00:00:00.000Z", kind: "meta_patch", patch: { title: "renamed", titleByUser: true } },
  ];
  const meta = foldMetadata(recs)!;
  assert.equal(meta.title, "renamed");
  assert.equal(meta.lastActivity, "2026-01-02T03:05:00.000Z");
});
