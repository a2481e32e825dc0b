import assert from "node:assert/strict";
import { test } from "node:test";
import { turnEnds } from "../../../../src/webview/thread/turn-changes";

const e = (...kinds: string[]) => kinds.map((kind) => ({ kind }) as { kind: "user" });

test("turn ends: by user messages after a done or an error; an echoed prompt is not a new turn", () => {
  assert.deepEqual(
    [...turnEnds(e("user", "agent", "done", "user", "user", "tool", "done", "user", "error"))],
    [
      [1, 2],
      [2, 6],
      [3, 8],
    ],
  );
  assert.deepEqual([...turnEnds(e("agent", "notice"))], [[1, 1]]);
  assert.deepEqual([...turnEnds([])], []);
});
