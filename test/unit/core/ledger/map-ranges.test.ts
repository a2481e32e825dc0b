// Inline review maps every pending hunk of a reviewed version onto the document now through one diff
// (`mapRanges`, src/core/ledger/hunks.ts) instead of one whole-document diff per hunk: the same answers as the
// per-hunk mapping before (bench/baselines/map-range.ts), case by case and over many seeded random edits.
import assert from "node:assert/strict";
import { test } from "node:test";
import { mapRangeBefore } from "../../../../bench/baselines/map-range";
import { hunksOf, mapRange, mapRanges, type LineRange } from "../../../../src/core/ledger/hunks";

const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join("");
const TEN = lines("a", "b", "c", "d", "e", "f", "g", "h", "i", "j");

test("a range of unchanged lines keeps its place; lines inserted or removed above shift it", () => {
  assert.deepEqual(mapRange(TEN, TEN, 2, 4), { start: 2, end: 4 });
  assert.deepEqual(mapRange(TEN, lines("x", "y", ...TEN.trim().split("\n")), 2, 4), { start: 4, end: 6 });
  assert.deepEqual(mapRange(TEN, lines("c", "d", "e", "f", "g", "h", "i", "j"), 2, 4), { start: 0, end: 2 });
  // below the range: no shift
  assert.deepEqual(mapRange(TEN, lines("a", "b", "c", "d", "e", "NEW", "f", "g", "h", "i", "j"), 2, 4), {
    start: 2,
    end: 4,
  });
});

test("a range edited inside (or at its edge) is dropped", () => {
  assert.equal(mapRange(TEN, lines("a", "b", "C", "d", "e", "f", "g", "h", "i", "j"), 2, 4), undefined);
  assert.equal(mapRange(TEN, lines("a", "b", "c", "X", "d", "e", "f", "g", "h", "i", "j"), 2, 4), undefined);
  assert.equal(mapRange(TEN, lines("a", "b", "d", "e", "f", "g", "h", "i", "j"), 2, 4), undefined);
});

test("an empty range (a removal's place): dropped when lines were inserted right there, kept otherwise", () => {
  // inserted at the point: dropped
  assert.equal(mapRange(TEN, lines("a", "b", "X", "c", "d", "e", "f", "g", "h", "i", "j"), 2, 2), undefined);
  // the line before the point replaced: still there, shifted by what that replacement added
  assert.deepEqual(mapRange(TEN, lines("a", "B1", "B2", "c", "d", "e", "f", "g", "h", "i", "j"), 2, 2), {
    start: 3,
    end: 3,
  });
  // the line after the point replaced: the point stays
  assert.deepEqual(mapRange(TEN, lines("a", "b", "C", "d", "e", "f", "g", "h", "i", "j"), 2, 2), {
    start: 2,
    end: 2,
  });
  // inside a replaced block: dropped
  assert.equal(mapRange(TEN, lines("a", "X", "Y", "d", "e", "f", "g", "h", "i", "j"), 2, 2), undefined);
});

test("mapRanges answers each range as the per-range mapping before did, over many seeded random edits", () => {
  let seed = 56;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  const WORDS = ["a", "b", "c", "d", "x", "y", ""];
  let ranges = 0;
  let placed = 0;
  for (let round = 0; round < 400; round++) {
    // small alphabets so the diff meets repeated lines, empty files and files without a last newline
    const from = Array.from({ length: rand(40) }, () => WORDS[rand(WORDS.length)]!);
    const to = [...from];
    for (let e = rand(6); e > 0; e--) {
      const at = rand(to.length + 1);
      const kind = rand(3);
      if (kind === 0) to.splice(at, 0, ...Array.from({ length: 1 + rand(3) }, () => WORDS[rand(WORDS.length)]!));
      else if (kind === 1) to.splice(at, 1 + rand(3));
      else if (at < to.length) to[at] = `edited ${round}`;
    }
    const join = (xs: string[]) => xs.join("\n") + (rand(4) ? "\n" : "");
    const [a, b] = [join(from), join(to)];
    const n = a ? a.split("\n").length : 0;
    const asked: LineRange[] = [];
    for (let start = 0; start <= n; start++)
      for (const len of [0, 1, 2, 5]) if (start + len <= n) asked.push({ start, end: start + len });
    const now = mapRanges(hunksOf(a, b), asked);
    asked.forEach((r, i) => {
      const before = mapRangeBefore(a, b, r.start, r.end);
      assert.deepEqual(now[i], before, `${JSON.stringify(a)} → ${JSON.stringify(b)}, [${r.start}, ${r.end})`);
      if (before) placed++;
    });
    ranges += asked.length;
  }
  assert.ok(ranges > 20_000 && placed > ranges / 4 && placed < ranges, `${placed} of ${ranges} ranges placed`);
});
