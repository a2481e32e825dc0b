// A multi-root draft's folder picker (#35): the host sends the draft's state more than once (the quick agent list,
// then doctor's with versions, then on every agents or settings change); a folder the person picked in between stays
// picked (it came back as the first folder, and Send started the session there).
import assert from "node:assert/strict";
import { test } from "node:test";
import { shownFolder } from "../../../../../src/webview/thread/composer/draft-controls";
import { parseWebviewMessage } from "../../../../../src/webview/thread/protocol";

const FOLDERS = ["/ws/first", "/ws/second"];

test("the host's folder until the person picks one; their pick stays when the state comes again", () => {
  assert.equal(shownFolder(FOLDERS, "/ws/first", undefined), "/ws/first", "the first state: the host's folder");
  assert.equal(shownFolder(FOLDERS, "/ws/first", "/ws/second"), "/ws/second", "doctor's list came after the pick");
});

test("a pick no longer offered (its folder left the workspace) gives way to the host's folder", () => {
  assert.equal(shownFolder(["/ws/first"], "/ws/first", "/ws/second"), "/ws/first");
});

test("the picker's pickFolder message passes the panel's message check with a folder only (the host checks it is a workspace folder)", () => {
  assert.deepEqual(parseWebviewMessage({ type: "pickFolder", folder: "/ws/second", extra: 1 }), {
    type: "pickFolder",
    folder: "/ws/second",
  });
  for (const folder of [undefined, 7, ["/ws"], "x".repeat(4097)])
    assert.equal(
      parseWebviewMessage({ type: "pickFolder", folder }),
      undefined,
      `folder ${String(folder).slice(0, 9)}`,
    );
});
