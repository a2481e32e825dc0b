import assert from "node:assert/strict";
import { test } from "node:test";
import { fileUri, parseFileArg } from "../../../../src/core/prompt/refs";

test("--file PATH[:L1-L2] parses into file or selection items resolved against the cwd", () => {
  assert.deepEqual(parseFileArg("src/a.ts", "/ws"), {
    kind: "file",
    label: "a.ts",
    uri: "file:///ws/src/a.ts",
    path: "/ws/src/a.ts",
  });
  const sel = parseFileArg("src/a.ts:10-20", "/ws");
  assert.equal(sel.kind, "selection");
  assert.deepEqual(sel.range, { start: 10, end: 20 });
  assert.equal(sel.label, "a.ts:10-20");
  assert.equal(sel.uri, "file:///ws/src/a.ts#L10:20");
  assert.deepEqual(parseFileArg("/abs/x.py:7", "/ws").range, { start: 7, end: 7 });
  assert.deepEqual(parseFileArg("x.py#L3-L4", "/ws").range, { start: 3, end: 4 });
  assert.throws(() => parseFileArg("x.py:9-3", "/ws"), /start ≤ end/);
  assert.throws(() => parseFileArg("x.py:0", "/ws"), /1-based/);
});

test("file URIs escape spaces and keep the range in the fragment", () => {
  assert.equal(fileUri("/w s/a b.md", { start: 1, end: 2 }), "file:///w%20s/a%20b.md#L1:2");
});
