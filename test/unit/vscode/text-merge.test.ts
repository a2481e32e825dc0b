import { test } from "node:test";
import assert from "node:assert/strict";
import { applyEdits, diffLines, mergeAgentWrite, splitLines } from "../../../src/vscode/text-merge";

test("splitLines keeps terminators so joining gives the text back", () => {
  for (const t of ["", "a", "a\n", "a\nb", "a\r\nb\n\n"]) assert.equal(splitLines(t).join(""), t);
});

test("an unedited buffer gets only the changed lines replaced", () => {
  const base = "one\ntwo\nthree\nfour\n";
  const next = "one\nTWO\nthree\nfour\nfive\n";
  const r = mergeAgentWrite(base, next, base);
  assert.ok(r.ok);
  assert.equal(r.edits.length, 2);
  assert.equal(applyEdits(base, r.edits), next);
  assert.deepEqual(r.edits[0], { start: 4, end: 8, text: "TWO\n" });
});

test("a user edit elsewhere in the file survives the agent's write", () => {
  const base = "a\nb\nc\nd\ne\nf\n";
  const next = "a\nb\nc\nd\nE!\nf\n";
  const current = "a\nuser line\nb\nc\nd\ne\nf\n";
  const r = mergeAgentWrite(base, next, current);
  assert.ok(r.ok);
  assert.equal(applyEdits(current, r.edits), "a\nuser line\nb\nc\nd\nE!\nf\n");
});

test("an agent change to a line the user also changed is reported as a conflict", () => {
  const base = "a\nb\nc\n";
  const r = mergeAgentWrite(base, "a\nagent\nc\n", "a\nuser\nc\n");
  assert.deepEqual(r, { ok: false, conflictLine: 2 });
});

test("writing into an empty file and emptying a file both work", () => {
  const r1 = mergeAgentWrite("", "hello\nworld", "");
  assert.ok(r1.ok);
  assert.equal(applyEdits("", r1.edits), "hello\nworld");
  const r2 = mergeAgentWrite("x\ny\n", "", "x\ny\n");
  assert.ok(r2.ok);
  assert.equal(applyEdits("x\ny\n", r2.edits), "");
});

test("diffLines finds separate hunks for separate changes", () => {
  const h = diffLines(["1", "2", "3", "4", "5"], ["1", "two", "3", "4", "five"]);
  assert.equal(h.length, 2);
  assert.deepEqual(h[0], { start: 1, end: 2, lines: ["two"] });
});

test("huge rewrites fall back to one block and still apply exactly", () => {
  const a = Array.from({ length: 3000 }, (_, i) => `line ${i}\n`);
  const b = a.map((l, i) => (i % 2 ? l.toUpperCase() : l));
  const r = mergeAgentWrite(a.join(""), b.join(""), a.join(""));
  assert.ok(r.ok);
  assert.equal(applyEdits(a.join(""), r.edits), b.join(""));
});
