import assert from "node:assert/strict";
import { test } from "node:test";
import { mergeAgentWrite } from "../../../../src/core/text/agent-write";
import { applyEdits, editsBetween } from "../../../../src/core/text/edits";
import { diffLines, diffText } from "../../../../src/core/text/line-diff";
import { matchEol, splitLines } from "../../../../src/core/text/lines";
import { hasConflictMarkers, merge3, resolveAll } from "../../../../src/core/text/merge3";

const file = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`);
const text = (lines: string[]) => lines.join("");
const edited = (lines: string[], at: Record<number, string>) =>
  lines.map((l, i) => (at[i + 1] !== undefined ? at[i + 1]! : l));

test("3,000 lines, agent edits at lines 10 and 2,900: two hunks, not one 2,891-line block", () => {
  const base = file(3000);
  const next = edited(base, { 10: "agent ten\n", 2900: "agent 2900\n" });
  const hunks = diffLines(base, next);
  assert.deepEqual(
    hunks.map((h) => [h.start, h.end, h.lines.length]),
    [
      [9, 10, 1],
      [2899, 2900, 1],
    ],
  );
  const r = mergeAgentWrite(text(base), text(next), text(base));
  assert.equal(r.kind, "clean");
  assert.equal(r.kind === "clean" && r.edits.length, 2);
  assert.equal(r.kind === "clean" && applyEdits(text(base), r.edits), text(next));
});

test("a user edit at line 1,500 merges cleanly with the agent's edits at 10 and 2,900", () => {
  const base = file(3000);
  const next = edited(base, { 10: "agent ten\n", 2900: "agent 2900\n" });
  const current = edited(base, { 1500: "user typed here\n" });
  const r = mergeAgentWrite(text(base), text(next), text(current));
  assert.equal(r.kind, "clean", "not a false conflict");
  if (r.kind !== "clean") return;
  assert.equal(r.edits.length, 2, "only the agent's two regions are touched; the user's line is not rewritten");
  assert.ok(r.edits.every((e) => e.text.length < 20));
  assert.equal(applyEdits(text(current), r.edits), text(edited(current, { 10: "agent ten\n", 2900: "agent 2900\n" })));
});

test("non-overlapping edits always merge: adjacent lines, inserts next to a changed block, same change on both sides", () => {
  const base = ["a\n", "b\n", "c\n", "d\n"];
  const cases: Array<[string[], string[], string[]]> = [
    // user changes b, agent changes c (adjacent)
    [
      ["a\n", "B\n", "c\n", "d\n"],
      ["a\n", "b\n", "C\n", "d\n"],
      ["a\n", "B\n", "C\n", "d\n"],
    ],
    // user inserts before c, agent changes c
    [
      ["a\n", "b\n", "x\n", "c\n", "d\n"],
      ["a\n", "b\n", "C\n", "d\n"],
      ["a\n", "b\n", "x\n", "C\n", "d\n"],
    ],
    // user changes b, agent inserts after b
    [
      ["a\n", "B\n", "c\n", "d\n"],
      ["a\n", "b\n", "y\n", "c\n", "d\n"],
      ["a\n", "B\n", "y\n", "c\n", "d\n"],
    ],
    // both make the same change
    [
      ["a\n", "same\n", "c\n", "d\n"],
      ["a\n", "same\n", "c\n", "d\n"],
      ["a\n", "same\n", "c\n", "d\n"],
    ],
    // user deletes a, agent appends
    [
      ["b\n", "c\n", "d\n"],
      ["a\n", "b\n", "c\n", "d\n", "e\n"],
      ["b\n", "c\n", "d\n", "e\n"],
    ],
  ];
  for (const [ours, theirs, want] of cases) {
    const m = merge3(base, ours, theirs);
    assert.deepEqual(m.conflicts, [], JSON.stringify({ ours, theirs }));
    assert.deepEqual(resolveAll(m, "theirs"), want);
  }
});

test("a true conflict keeps both sides, marks them and says where", () => {
  const base = "a\nb\nc\nd\n";
  const r = mergeAgentWrite(base, "a\nagent b\nc\nD by agent\n", "a\nuser b\nc\nd\n");
  assert.equal(r.kind, "conflict");
  if (r.kind !== "conflict") return;
  assert.equal(r.conflicts.length, 1);
  assert.deepEqual(r.conflicts[0]!, {
    baseStart: 1,
    baseEnd: 2,
    base: ["b\n"],
    ours: ["user b\n"],
    theirs: ["agent b\n"],
  });
  assert.equal(r.firstConflictLine, 2);
  assert.equal(r.agentWins, "a\nagent b\nc\nD by agent\n");
  assert.equal(r.userWins, "a\nuser b\nc\nD by agent\n", "the agent's non-conflicting change is kept either way");
  assert.equal(
    r.marked,
    "a\n<<<<<<< yours (unsaved)\nuser b\n||||||| what the agent read\nb\n=======\nagent b\n>>>>>>> agent\nc\nD by agent\n",
  );
  assert.ok(hasConflictMarkers(r.marked));
  assert.ok(!hasConflictMarkers(r.agentWins));
  // two insertions at the same point are a conflict too (their order is unknown)
  assert.equal(merge3(["a\n"], ["a\n", "u\n"], ["a\n", "t\n"]).conflicts.length, 1);
});

test("CRLF files: an agent writing LF changes only its lines, and the edits keep CRLF", () => {
  const base = "one\r\ntwo\r\nthree\r\n";
  const r = mergeAgentWrite(base, "one\nTWO\nthree\n", "zero\r\none\r\ntwo\r\nthree\r\n");
  assert.equal(r.kind, "clean");
  if (r.kind !== "clean") return;
  assert.equal(r.edits.length, 1);
  assert.equal(r.text, "zero\r\none\r\nTWO\r\nthree\r\n");
  assert.equal(matchEol("a\nb", "x\r\n"), "a\r\nb");
  assert.equal(matchEol("a\r\nb\n", "x\r\n"), "a\r\nb\n", "mixed agent text is left as written");
  const c = mergeAgentWrite("a\r\nb\r\n", "a\nagent\n", "a\r\nuser\r\n");
  assert.equal(
    c.kind === "conflict" && c.marked,
    "a\r\n<<<<<<< yours (unsaved)\r\nuser\r\n||||||| what the agent read\r\nb\r\n=======\r\nagent\r\n>>>>>>> agent\r\n",
  );
});

test("files without a final newline", () => {
  // the agent appends a line to a file whose last line has no newline; the user edited the first line
  const r = mergeAgentWrite("a\nb", "a\nb\nc", "A\nb");
  assert.equal(r.kind === "clean" && r.text, "A\nb\nc");
  // both change the unterminated last line: a conflict whose markers still start on their own lines
  const c = mergeAgentWrite("a\nb", "a\nagent", "a\nuser");
  assert.equal(c.kind, "conflict");
  assert.equal(
    c.kind === "conflict" && c.marked,
    "a\n<<<<<<< yours (unsaved)\nuser\n||||||| what the agent read\nb\n=======\nagent\n>>>>>>> agent\n",
  );
  assert.equal(c.kind === "conflict" && c.agentWins, "a\nagent");
  const e = editsBetween("x\ny", "x\ny\n");
  assert.equal(applyEdits("x\ny", e), "x\ny\n");
});

test("writing into an empty file, emptying one, and a rewrite of every other line stay exact", () => {
  for (const [a, b] of [
    ["", "hello\nworld"],
    ["x\ny\n", ""],
    [text(file(3000)), text(file(3000).map((l, i) => (i % 2 ? l.toUpperCase() : l)))],
  ] as const) {
    const r = mergeAgentWrite(a, b, a);
    assert.equal(r.kind === "clean" && applyEdits(a, r.edits), b);
  }
  assert.deepEqual(diffText("1\n2\n3\n", "1\ntwo\n3\n"), [{ start: 1, end: 2, lines: ["two\n"] }]);
  for (const t of ["", "a", "a\n", "a\nb", "a\r\nb\n\n"]) assert.equal(splitLines(t).join(""), t);
});

test("random edits on both sides: a clean merge contains both sides' changes; resolving conflicts either way is exact", () => {
  let seed = 7;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  for (let round = 0; round < 200; round++) {
    const base = Array.from({ length: 30 }, (_, i) => `l${i % 9}\n`);
    const mutate = (tag: string) => {
      const out = base.slice();
      for (let k = 0; k < 3; k++) {
        const at = rand(out.length);
        const op = rand(3);
        if (op === 0) out.splice(at, 1);
        else if (op === 1) out.splice(at, 0, `${tag}${k}\n`);
        else out[at] = `${tag}${k}!\n`;
      }
      return out;
    };
    const ours = mutate("u");
    const theirs = mutate("t");
    const m = merge3(base, ours, theirs);
    if (m.conflicts.length === 0) {
      const merged = resolveAll(m, "theirs");
      for (const l of [...ours, ...theirs].filter((x) => /^[ut]/.test(x) && !base.includes(x)))
        assert.ok(merged.includes(l), `round ${round}: ${l} lost`);
    }
    // with one side unchanged the merge is the other side, exactly
    assert.deepEqual(resolveAll(merge3(base, base, theirs), "ours"), theirs);
    assert.deepEqual(resolveAll(merge3(base, ours, base), "theirs"), ours);
  }
});
