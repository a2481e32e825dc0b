import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { parseContextRef, parseContextRefs, type ContextRef } from "../../../../src/core/model/context";
import { recordsToMessages, messagesToRecords } from "../../../../src/core/snapshot/messages";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { LiveThread } from "../../../../src/core/thread/live-thread";
import { recordsToEvents } from "../../../../src/core/thread/record-events";
import { startInput, withTmp } from "../store/helpers";

const chips: ContextRef[] = [
  { kind: "file", label: "greet.js", uri: "file:///ws/greet.js", path: "/ws/greet.js", sent: "embedded" },
  { kind: "selection", label: "a.ts:2-4", uri: "file:///ws/a.ts#L2:4", path: "/ws/a.ts", range: { start: 2, end: 4 } },
  { kind: "image", label: "shot.png", uri: "attachment:shot.png", asset: "abc.png", mimeType: "image/png", bytes: 12 },
];

test("context refs from stored or untrusted input: valid ones kept, invalid ones dropped", () => {
  assert.deepEqual(parseContextRef(chips[1]), chips[1]);
  assert.equal(parseContextRef({ kind: "exe", label: "x", uri: "y" }), undefined);
  assert.equal(parseContextRef({ kind: "file", label: "x", uri: "y", range: { start: 5, end: 2 } }), undefined);
  assert.equal(parseContextRef({ kind: "file", label: "x".repeat(501), uri: "y" }), undefined);
  assert.deepEqual(parseContextRefs([chips[0], 42, { kind: "nope" }]), [chips[0]]);
  assert.equal(parseContextRefs("not a list"), undefined);
  assert.equal(parseContextRefs([]), undefined);
});

test("a prompt's chips are recorded with its user message and come back as events (resume, past threads)", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir));
    const lt = new LiveThread(h, store.readPath(h.path).metadata, { flushMs: 0 });
    lt.beginTurn("explain @greet.js and @a.ts:2-4 @shot.png", "m1", chips);
    lt.endTurn("end_turn");
    lt.beginTurn("plain follow-up", "m2");
    lt.close();
    const records = store.read(lt.threadId).records;
    const users = records.filter((r) => r.kind === "user_message");
    assert.deepEqual((users[0] as { context?: unknown }).context, chips);
    assert.ok(!("context" in users[1]!), "no empty context field on plain prompts");
    const events = recordsToEvents(records).filter((e) => e.type === "user_text");
    assert.deepEqual(events[0], {
      type: "user_text",
      text: "explain @greet.js and @a.ts:2-4 @shot.png",
      messageId: "m1",
      context: chips,
    });
  }));

test("snapshots carry the chips of user messages (acp_context) both ways", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir));
    const lt = new LiveThread(h, store.readPath(h.path).metadata, { flushMs: 0 });
    lt.beginTurn("explain @greet.js", "m1", [chips[0]!]);
    lt.close();
    const messages = recordsToMessages(store.read(lt.threadId).records);
    assert.deepEqual(messages[0]!.acp_context, [chips[0]]);
    const back = messagesToRecords(messages);
    assert.deepEqual((back[0] as { context?: unknown }).context, [chips[0]]);
    assert.equal(messagesToRecords([{ role: "user", content: "x", acp_context: "garbage" }])[0]!.kind, "user_message");
  }));
