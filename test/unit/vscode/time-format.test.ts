import { test } from "node:test";
import assert from "node:assert/strict";
import { dayLabel, elapsed } from "../../../src/vscode/time-format";

test("elapsed times read as seconds, minutes or hours", () => {
  assert.equal(elapsed(42_000), "42s");
  assert.equal(elapsed(185_000), "3m 5s");
  assert.equal(elapsed(2 * 3600_000 + 7 * 60_000), "2h 7m");
  assert.equal(elapsed(-5), "0s");
});

test("past sessions group under Today, Yesterday, then the date", () => {
  const now = new Date(2026, 10, 22, 9, 0, 0);
  assert.equal(dayLabel(new Date(2026, 10, 22, 0, 1).toISOString(), now), "Today");
  assert.equal(dayLabel(new Date(2026, 10, 21, 23, 59).toISOString(), now), "Yesterday");
  assert.equal(dayLabel(new Date(2026, 10, 3, 12, 0).toISOString(), now), "2026-11-03");
});
