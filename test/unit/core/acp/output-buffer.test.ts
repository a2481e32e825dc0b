import assert from "node:assert/strict";
import { test } from "node:test";
import { OutputBuffer } from "../../../../src/core/acp/output-buffer";
import { HeadTailBuffer } from "../../../../src/core/head-tail-buffer";
import { utf8CompleteLength } from "../../../../src/core/utf8";

/** What terminal/output must return: the last `limit` bytes, starting and ending on whole characters. */
function reference(all: Buffer, limit: number): string {
  let kept = all.subarray(Math.max(0, all.length - limit));
  if (all.length > limit) {
    let cut = 0;
    while (cut < kept.length && (kept[cut]! & 0xc0) === 0x80) cut++;
    kept = kept.subarray(cut);
  }
  return kept.toString("utf8", 0, utf8CompleteLength(kept));
}

test("the ring-backed terminal output equals the last bytes cut on character boundaries, however it wraps", () => {
  let seed = 3;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  const pieces = ["a", "é", "中", "😀", "line\n", "xyz"];
  for (const limit of [1, 5, 64, 1000]) {
    const buf = new OutputBuffer(limit);
    const all: Buffer[] = [];
    for (let i = 0; i < 400; i++) {
      let s = "";
      for (let k = rand(40); k > 0; k--) s += pieces[rand(pieces.length)];
      let bytes = Buffer.from(s);
      if (rand(5) === 0 && bytes.length > 1) bytes = bytes.subarray(0, bytes.length - 1); // a split character
      buf.append(bytes);
      all.push(bytes);
      const whole = Buffer.concat(all);
      assert.equal(buf.text(), reference(whole, limit), `limit ${limit}, append ${i}`);
      assert.equal(buf.truncated, whole.length > limit);
    }
  }
});

test("the shared ring grows with the output instead of holding its whole tail from the first byte", () => {
  const ring = new HeadTailBuffer(0, 1024 * 1024);
  ring.append(Buffer.from("hello"));
  assert.equal(ring.copy(0, 100).toString(), "hello");
  assert.ok(ring.allocated <= 4096, `a 5-byte output holds ${ring.allocated} bytes`);
  for (let i = 0; i < 600; i++) ring.append(Buffer.alloc(4096, i % 256));
  assert.equal(ring.total, 5 + 600 * 4096);
  assert.equal(ring.allocated, 1024 * 1024);
  assert.equal(ring.tailStart, ring.total - 1024 * 1024);
  const tail = ring.copy(ring.tailStart, 1024 * 1024);
  assert.equal(tail.length, 1024 * 1024);
  assert.equal(tail.at(-1), 599 % 256);
  assert.equal(tail[0], (600 - 256) % 256, "the oldest kept chunk");
});
