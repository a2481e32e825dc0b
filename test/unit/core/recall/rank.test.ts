import { test } from "node:test";
import assert from "node:assert/strict";
import type { SessionCount } from "../../../../src/core/recall/hits";
import { rankSessions, type RankInfo } from "../../../../src/core/recall/rank";

test("the best sessions of a ranking are the head of the full, total order", () => {
  let seed = 5;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const per = new Map<number, Map<number, SessionCount>>();
  const info = new Map<number, RankInfo>();
  for (let sid = 1; sid <= 400; sid++) {
    const byTerm = new Map<number, SessionCount>();
    for (let t = 0; t < 3; t++)
      if (rand(2)) byTerm.set(t, { hits: 1 + rand(4), firstHand: rand(3), offChain: rand(5) === 0 ? 1 : 0 });
    if (byTerm.size === 0) continue;
    per.set(sid, byTerm);
    info.set(sid, {
      sid,
      id: `s${rand(50)}`,
      last_ts: rand(3) * 1000,
      chars: 1000 * (1 + rand(3)),
      same_repo: rand(2),
    });
  }
  const all = rankSessions(per, info, ["a", "b", "c"]);
  assert.equal(all.length, per.size);
  for (const limit of [0, 1, 3, 10, 399, 1000])
    assert.deepEqual(rankSessions(per, info, ["a", "b", "c"], limit), all.slice(0, limit));
});
