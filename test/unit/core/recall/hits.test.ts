import { test } from "node:test";
import assert from "node:assert/strict";
import { scanIds } from "../../../../src/core/recall/hits";
import { messageId, type HitClass } from "../../../../src/core/recall/model";

const bytes = (ids: number[]) => Buffer.from(ids.join(","), "latin1");

test("scanIds reads the id list and counts hits, first-hand hits and off-chain hits per session", () => {
  const ids = [messageId(1, 0, 0), messageId(1, 25, 1), messageId(1, 26, 0), messageId(2, 3, 0), messageId(7, 99, 2)];
  const off = new Set([messageId(1, 26, 0)]);
  const { ids: read, counts } = scanIds(bytes(ids), off);
  assert.deepEqual([...read], ids);
  assert.deepEqual(counts.get(1), { hits: 3, firstHand: 1, offChain: 1 });
  assert.deepEqual(counts.get(2), { hits: 1, firstHand: 1, offChain: 0 });
  assert.deepEqual(counts.get(7), { hits: 1, firstHand: 0, offChain: 0 });
  assert.equal(scanIds(new Uint8Array(0)).ids.length, 0);
  assert.equal(scanIds(new Uint8Array(0)).counts.size, 0);
});

test("scanIds takes the hit class from every id's last digits, and sorts an answer out of rowid order", () => {
  const ids: number[] = [];
  for (let seq = 0; seq < 300; seq++) ids.push(messageId(3 + (seq % 5), seq, (seq % 4) as HitClass));
  const { ids: read, counts } = scanIds(bytes(ids));
  assert.deepEqual(
    [...read],
    [...ids].sort((a, b) => a - b),
  );
  for (let sid = 3; sid < 8; sid++) {
    const mine = ids.filter((id) => Math.floor(id / 2 ** 24) === sid);
    assert.deepEqual(counts.get(sid), {
      hits: mine.length,
      firstHand: mine.filter((id) => id % 4 === 0).length,
      offChain: 0,
    });
  }
  // more ids than the first guess of the array's size (short ids)
  assert.deepEqual([...scanIds(Buffer.from("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20")).ids].length, 20);
});
