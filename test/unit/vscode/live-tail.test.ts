import assert from "node:assert/strict";
import { test } from "node:test";
import type { RuntimeEvent } from "../../../src/core/model/events";
import { LiveTail } from "../../../src/vscode/live-tail";

const text = (t: string, messageId = "m1"): RuntimeEvent => ({ type: "text", stream: "output", text: t, messageId });
const tool = (id: string, status: "in_progress" | "completed"): RuntimeEvent => ({
  type: "tool_call",
  toolCall: { toolCallId: id, title: id, kind: "execute", status, content: [], locations: [] },
});

test("the tail coalesces chunks of one message and keeps a tool call's latest snapshot in place", () => {
  const tail = new LiveTail();
  tail.push(text("a"));
  tail.push(text("b"));
  tail.push(tool("t1", "in_progress"));
  tail.push(text("c", "m2"));
  tail.push(tool("t1", "completed"));
  tail.push(text("d", "m2"));
  assert.deepEqual(
    tail.window.map((e) => (e.type === "text" ? e.text : e.type === "tool_call" ? e.toolCall.status : e.type)),
    ["ab", "completed", "cd"],
  );
});

test("200k updates leave the tail under its cap, with a notice for what it dropped", () => {
  const tail = new LiveTail([], 100);
  for (let i = 0; i < 200_000; i++) tail.push(i % 3 ? tool(`t${i}`, "completed") : text(`x${i}`, `m${i}`));
  assert.ok(tail.window.length <= 100, `${tail.window.length} events`);
  const first = tail.window[0]!;
  assert.equal(first.type, "notice");
  assert.equal(tail.window.filter((e) => e.type === "notice").length, 1);
  const last = tail.window.at(-1)!;
  assert.ok(last.type === "tool_call" && last.toolCall.toolCallId === "t199999");
});

test("a checkpoint empties what follows it, not the window views read", () => {
  const tail = new LiveTail([{ type: "mode", modeId: "plan" }, text("a")]);
  tail.push({ type: "config_options", options: [] });
  tail.reset(1234);
  assert.equal(tail.checkpoint, 1234);
  assert.equal(tail.sinceCheckpoint.length, 0);
  assert.equal(tail.window.length, 3);
  tail.push(text("b", "m2"));
  assert.deepEqual(tail.sinceCheckpoint, [text("b", "m2")]);
});

test("once the window dropped events, the latest state events stay in front for the pickers", () => {
  const tail = new LiveTail([{ type: "mode", modeId: "plan" }], 10);
  for (let i = 0; i < 50; i++) tail.push(text(`x${i}`, `m${i}`));
  assert.deepEqual(
    tail.window.slice(0, 2).map((e) => e.type),
    ["mode", "notice"],
  );
  assert.ok(tail.sinceCheckpoint.length <= 10);
});
