import assert from "node:assert/strict";
import { test } from "node:test";
import { parseWebviewMessage } from "../../../../src/webview/thread/protocol";
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

test("turn ends: a message steered into the running turn is part of it, even after an error entry", () => {
  const entries = [
    { kind: "user" },
    { kind: "error" },
    { kind: "user", steered: true },
    { kind: "agent" },
    { kind: "done" },
    { kind: "user" },
  ] as { kind: "user"; steered?: boolean }[];
  assert.deepEqual(
    [...turnEnds(entries)],
    [
      [1, 4],
      [2, 5],
    ],
  );
});

test("the rows' messages: Keep all names a turn, Undo restore names a restore operation; anything else is dropped", () => {
  assert.deepEqual(parseWebviewMessage({ type: "keepTurn", turn: 2 }), { type: "keepTurn", turn: 2 });
  assert.equal(parseWebviewMessage({ type: "keepTurn", turn: 0 }), undefined);
  assert.deepEqual(parseWebviewMessage({ type: "undoRestore", op: "restore-m1abc2def" }), {
    type: "undoRestore",
    op: "restore-m1abc2def",
  });
  assert.equal(parseWebviewMessage({ type: "undoRestore", op: "turn-1" }), undefined, "only a restore is undone");
  assert.equal(parseWebviewMessage({ type: "undoRestore", op: 3 }), undefined);
});

test("the rows' messages: an apply's row names its operation; a turn's operation id is accepted, anything else not", () => {
  assert.deepEqual(parseWebviewMessage({ type: "keepTurn", turn: { op: "apply-m1abc2def" } }), {
    type: "keepTurn",
    turn: { op: "apply-m1abc2def" },
  });
  assert.deepEqual(parseWebviewMessage({ type: "reviewTurn", turn: { op: "turn-3" } }), {
    type: "reviewTurn",
    turn: { op: "turn-3" },
  });
  assert.equal(parseWebviewMessage({ type: "restoreTurn", turn: { op: "restore-m1abc" } }), undefined);
  assert.equal(parseWebviewMessage({ type: "restoreTurn", turn: { op: "apply-X; rm" } }), undefined);
  assert.equal(parseWebviewMessage({ type: "keepTurn", turn: { op: 5 } }), undefined);
});
