/**
 * Snapshots written by the save/restore specification's own implementation (only its fields in `state`)
 * import, and our exports carry its fields next to ours, so each side reads the other's files.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { validateSnapshot, type SessionSnapshot, type SnapshotMessage } from "../../../../src/core/snapshot/format";
import { listSnapshots, readSnapshot, restoreSnapshot } from "../../../../src/core/snapshot/load";
import { saveSnapshot, snapshotFromThread } from "../../../../src/core/snapshot/save";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { conversation } from "../../../../src/core/thread/conversation";
import { startInput, withTmp } from "../store/helpers";
import { repoRoot } from "../../../fixtures/agent-env/index";

const SPEC_DIR = join(repoRoot(), "test", "fixtures", "snapshots", "spec");
const SPEC_FILE = join(SPEC_DIR, "saved_session_webshop_code_agent_gpt-4o_20250301_101500.json");
const SPEC_FIELDS = [
  "agent_type",
  "root_dir",
  "tool_group",
  "model_group",
  "model_name",
  "disable_review",
  "review_max_iterations",
  "start_commit",
  "messages",
  "non_interactive",
] as const;

const raw = () => JSON.parse(readFileSync(SPEC_FILE, "utf8")) as { state: Record<string, unknown> } & SessionSnapshot;

/** A message as the specification sees it: our `timestamp` dropped, tool arguments compared as JSON. */
function comparable(m: SnapshotMessage): unknown {
  const { timestamp: _ts, ...rest } = m;
  if (!rest.tool_calls) return rest;
  return {
    ...rest,
    tool_calls: rest.tool_calls.map((c) => ({
      ...c,
      function: { name: c.function.name, arguments: JSON.parse(c.function.arguments) },
    })),
  };
}

test("the fixture is a 1,000-message file with the specification's fields only", () => {
  const file = raw();
  assert.equal(file.state.messages instanceof Array && file.state.messages.length, 1000);
  assert.deepEqual(Object.keys(file.state), [...SPEC_FIELDS]);
  for (const ours of ["agent", "mode", "model", "permission_policy"]) assert.ok(!(ours in file.state));
});

test("a specification file imports: our fields default (model from model_name), its fields are kept", () =>
  withTmp((dir) => {
    const snap = readSnapshot(SPEC_FILE);
    assert.equal(snap.state.model, "gpt-4o");
    assert.equal(snap.state.agent, "code_agent");
    assert.equal(snap.state.mode, "default");
    assert.equal(snap.state.permission_policy, "ask");
    const [listing] = listSnapshots(SPEC_DIR);
    assert.deepEqual([listing!.error, listing!.messageCount, listing!.model], [undefined, 1000, "gpt-4o"]);
    const store = new ThreadStore(join(dir, "home"));
    const progress: number[] = [];
    const id = restoreSnapshot(store, snap, SPEC_FILE, {
      rootDir: dir,
      onWarning: () => undefined,
      onProgress: (done) => progress.push(done),
    });
    assert.equal(progress.at(-1), 1000);
    const thread = store.read(id);
    assert.equal(thread.metadata.model, "gpt-4o");
    assert.equal(thread.metadata.mode, "acp");
    assert.equal(thread.metadata.gitHead, "3f9c2a7e51d04b8c9e6f1a2b3c4d5e6f7a8b9c0d");
    const tools = thread.records.filter((r) => r.kind === "tool_call");
    assert.equal(tools.length, 400, "every tool call with its answer is one tool call record");
    const first = tools[0]!.kind === "tool_call" ? tools[0]!.toolCall : undefined;
    assert.equal(first?.title, "read_file");
    assert.deepEqual(first?.rawInput, { path: "app/cart.py" });
    assert.equal(first?.status, "completed");
    const conv = conversation(thread.records);
    assert.equal(conv.filter((e) => e.role === "user").length, 200);
    assert.match(conv.find((e) => e.role === "user" && e.text.startsWith("第"))!.text, /折扣计算/);
    assert.equal(thread.metadata.counters.toolCalls, 400);
  }));

test("a specification file round-trips: import then export gives back its fields and messages", () =>
  withTmp((dir) => {
    const original = raw();
    const store = new ThreadStore(join(dir, "home"));
    const id = restoreSnapshot(store, readSnapshot(SPEC_FILE), SPEC_FILE, { rootDir: dir, onWarning: () => {} });
    const exported = snapshotFromThread(store.read(id));
    const path = saveSnapshot(exported, { dir: join(dir, "out") });
    const written = JSON.parse(readFileSync(path, "utf8")) as SessionSnapshot;
    assert.equal(written.version, "1.0");
    assert.equal(written.file_prefix, "webshop");
    for (const field of SPEC_FIELDS) {
      if (field === "messages" || field === "root_dir") continue;
      assert.deepEqual(written.state[field], original.state[field], field);
    }
    assert.equal(written.state.root_dir, dir, "restored under --root, exported from there");
    assert.equal(written.state.messages.length, 1000);
    assert.deepEqual(
      written.state.messages.map(comparable),
      (original.state.messages as SnapshotMessage[]).map(comparable),
    );
    // ...and ours are there too, so a second import needs no defaults.
    assert.equal(written.state.agent, "code_agent");
    assert.equal(written.state.model, "gpt-4o");
    assert.equal(written.state.thread_mode, "acp");
    const again = restoreSnapshot(store, readSnapshot(path), path, { onWarning: () => {} });
    assert.deepEqual(
      conversation(store.read(again).records).map((e) => `${e.role}:${e.text}`),
      conversation(store.read(id).records).map((e) => `${e.role}:${e.text}`),
    );
  }));

test("our own exports carry every specification field with its type, tool calls answered in OpenAI form", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir, { repoRoot: dir, gitHead: "abc123" }));
    h.append({ kind: "user_message", messageId: "u", text: "read it" });
    h.append({ kind: "agent_message", messageId: "a", text: "Reading " });
    h.append({ kind: "agent_message", messageId: "a", text: "the file." });
    h.append({
      kind: "tool_call",
      toolCall: {
        toolCallId: "t1",
        title: "Read src/a.ts",
        kind: "read",
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: "export {}" } }],
        locations: [{ path: join(dir, "src/a.ts") }],
        rawInput: { path: "src/a.ts" },
      },
    });
    h.append({ kind: "compaction", windowId: "w1", summary: "we read a.ts" });
    h.patch({ model: "gpt-5" });
    h.close();
    const s = snapshotFromThread(store.read(h.threadId));
    const st = s.state;
    assert.equal(st.agent_type, "code_agent");
    assert.equal(st.model_name, "gpt-5");
    assert.equal(st.start_commit, "abc123");
    for (const field of SPEC_FIELDS) assert.ok(field in st, `state.${field} is written`);
    assert.equal(typeof st.disable_review, "boolean");
    assert.equal(typeof st.non_interactive, "boolean");
    assert.deepEqual(
      st.messages.map((m) => [
        m.role,
        m.content,
        m.tool_calls?.map((c) => [c.id, c.function.name, c.function.arguments]),
        m.tool_call_id,
      ]),
      [
        ["user", "read it", undefined, undefined],
        ["assistant", "Reading the file.", [["t1", "read", '{"path":"src/a.ts"}']], undefined],
        ["tool", "export {}", undefined, "t1"],
        ["system", "Summary of earlier conversation: we read a.ts", undefined, undefined],
      ],
    );
  }));

test("specification fields of the wrong type get a clear error", () => {
  const bad = (state: Record<string, unknown>) => {
    const file = raw();
    Object.assign(file.state, state);
    return () => validateSnapshot(file, "x.json");
  };
  assert.throws(bad({ review_max_iterations: "3" }), /'state\.review_max_iterations' must be an integer or null/);
  assert.throws(bad({ disable_review: "no" }), /'state\.disable_review' must be true, false or null/);
  assert.throws(bad({ model_name: 4 }), /'state\.model_name' must be a string or null/);
  assert.throws(
    bad({ messages: [{ role: "assistant", content: null, tool_calls: [{ function: {} }] }] }),
    /messages\[0\]\.tool_calls\[0\] needs an 'id'/,
  );
});
