import assert from "node:assert/strict";
import { test } from "node:test";
import { page, PAGE, pastGroups, wholeGroups } from "../../../src/vscode/sessions-groups";

const now = new Date(2026, 10, 29, 12, 0);
const at = (daysAgo: number, h = 10) => new Date(2026, 10, 29 - daysAgo, h).toISOString();

test("the last week groups by day (open), older threads by month (closed), most recent first", () => {
  const items = [at(0), at(0, 8), at(1), at(6), at(7), at(20), at(40), at(400)];
  const groups = pastGroups(items, (t) => t, now);
  assert.deepEqual(
    groups.map((g) => [g.label, g.expanded, g.items.length]),
    [
      ["Today", true, 2],
      ["Yesterday", true, 1],
      ["2026-11-23", true, 1],
      ["November 2026", false, 2],
      ["October 2026", false, 1],
      ["October 2025", false, 1],
    ],
  );
});

test("10,000 threads make a few dozen groups, and a group shows one page, then one more per 'Show more'", () => {
  const items = Array.from({ length: 10_000 }, (_, i) => new Date(now.getTime() - i * 15 * 60_000).toISOString());
  const groups = pastGroups(items, (t) => t, now);
  assert.ok(groups.length < 40, `${groups.length} groups`);
  assert.equal(
    groups.reduce((n, g) => n + g.items.length, 0),
    10_000,
  );
  const big = groups.find((g) => g.items.length > PAGE)!;
  assert.deepEqual([page(big.items).rows.length, page(big.items).left], [PAGE, big.items.length - PAGE]);
  assert.equal(page(big.items, big.items.length).left, 0);
});

test("a first paint shows only the groups its rows hold whole: not the one its rows end in, nor older ones", () => {
  const items = [at(0), at(1, 12), at(1, 9), at(3), at(20), at(40)];
  const by = (t: string) => t;
  // every thread after yesterday 10:00 is in: yesterday's group may miss some (a wrong count): it waits
  assert.deepEqual(wholeGroups(items, by, at(1, 10), now), [at(0)]);
  // in a month group: the day groups are whole, November's is not
  assert.deepEqual(wholeGroups(items, by, at(25), now), [at(0), at(1, 12), at(1, 9), at(3)]);
  // a bound on a group's edge: the rows at the bound may miss a tie
  assert.deepEqual(wholeGroups(items, by, at(3), now), [at(0), at(1, 12), at(1, 9)]);
  // every thread in: all of them
  assert.deepEqual(wholeGroups(items, by, undefined, now), items);
  // the bound older than every row (in another month): the rows' groups are whole
  assert.deepEqual(wholeGroups(items.slice(0, 4), by, at(60), now), items.slice(0, 4));
});
