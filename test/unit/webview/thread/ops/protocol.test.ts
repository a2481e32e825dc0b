import assert from "node:assert/strict";
import { test } from "node:test";
import { parseWebviewMessage } from "../../../../../src/webview/thread/protocol";

test("the ops strip's actions pass the panel's message check exactly, anything else is dropped", () => {
  assert.deepEqual(parseWebviewMessage({ type: "ops", action: "retry" }), { type: "ops", action: "retry" });
  assert.deepEqual(parseWebviewMessage({ type: "ops", action: "retry", step: "restart" }), {
    type: "ops",
    action: "retry",
    step: "restart",
  });
  for (const action of ["dismiss", "takeOver", "handoff", "saveBundle", "exportMarkdown", "stop"])
    assert.deepEqual(parseWebviewMessage({ type: "ops", action, extra: 1 }), { type: "ops", action });
  assert.deepEqual(parseWebviewMessage({ type: "ops", action: "openThread", threadId: "t1" }), {
    type: "ops",
    action: "openThread",
    threadId: "t1",
  });
  assert.equal(parseWebviewMessage({ type: "ops", action: "retry", step: "reboot" }), undefined);
  assert.equal(parseWebviewMessage({ type: "ops", action: "openThread" }), undefined);
  assert.equal(parseWebviewMessage({ type: "ops", action: "rm -rf" }), undefined);
});
