import assert from "node:assert/strict";
import { test } from "node:test";
import { parseUsageMessage } from "../../../../src/webview/usage/protocol";

test("the Usage view accepts known groupings and ranges only", () => {
  assert.deepEqual(parseUsageMessage({ type: "ready" }), { type: "ready" });
  assert.deepEqual(parseUsageMessage({ type: "query", by: "model", range: "7d" }), {
    type: "query",
    by: "model",
    range: "7d",
  });
  assert.equal(parseUsageMessage({ type: "query", by: "model; drop table", range: "7d" }), undefined);
  assert.equal(parseUsageMessage({ type: "query", by: "day", range: "1y" }), undefined);
  assert.deepEqual(parseUsageMessage({ type: "openThread", threadId: "abc" }), { type: "openThread", threadId: "abc" });
  assert.equal(parseUsageMessage({ type: "openThread", threadId: 5 }), undefined);
  assert.equal(parseUsageMessage(null), undefined);
});
