import { test } from "node:test";
import assert from "node:assert/strict";
import { age, dayLabel, elapsed } from "../../../src/vscode/time-format";

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

test("ages are short: now, minutes, hours, days, weeks, then the date", () => {
  const now = Date.parse("2026-11-22T12:00:00Z");
  assert.equal(age("2026-11-22T11:59:30Z", now), "now");
  assert.equal(age("2026-11-22T11:55:00Z", now), "5m");
  assert.equal(age("2026-11-22T09:00:00Z", now), "3h");
  assert.equal(age("2026-11-19T12:00:00Z", now), "3d");
  assert.equal(age("2026-10-30T12:00:00Z", now), "3w");
  assert.equal(age("2026-01-02T12:00:00Z", now), "2026-01-02");
  assert.equal(age("garbage", now), "");
});
