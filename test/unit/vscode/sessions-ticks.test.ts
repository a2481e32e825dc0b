import assert from "node:assert/strict";
import { test } from "node:test";
import { AGE_TICKS, localDay, tickRefresh } from "../../../src/vscode/sessions-ticks";

const top = ["away", "live", "worktrees", "day:Today", "day:Yesterday", "month:2026-10"];
const id = (n: string) => n;

test("while a session works, each tick refreshes the Live and Worktrees groups, never the root (#36)", () => {
  for (let n = 1; n < AGE_TICKS; n++)
    assert.deepEqual(tickRefresh(top, id, { n, working: true, dayChanged: false }), ["live", "worktrees"]);
  assert.deepEqual(tickRefresh(["day:Today"], id, { n: 1, working: true, dayChanged: false }), [], "no Live group");
});

test("nothing works: the ticks between two minutes refresh nothing", () => {
  for (let n = 1; n < AGE_TICKS; n++)
    assert.deepEqual(tickRefresh(top, id, { n, working: false, dayChanged: false }), []);
});

test("once a minute every top-level node (past rows' ages move), working or not; the root only after midnight", () => {
  for (const working of [true, false]) {
    assert.deepEqual(tickRefresh(top, id, { n: AGE_TICKS, working, dayChanged: false }), top);
    assert.deepEqual(tickRefresh(top, id, { n: 2 * AGE_TICKS, working, dayChanged: false }), top);
    assert.equal(tickRefresh(top, id, { n: AGE_TICKS, working, dayChanged: true }), "root", "the day groups move");
  }
  // between two minutes a new day waits for the minute's tick (the ages, not the groups, are what moves each 5 s)
  assert.deepEqual(tickRefresh(top, id, { n: 1, working: true, dayChanged: true }), ["live", "worktrees"]);
});

test("the refreshed nodes are a copy: the tree's last listing is not changed by the caller", () => {
  const nodes = tickRefresh(top, id, { n: AGE_TICKS, working: false, dayChanged: false });
  assert.notEqual(nodes, top);
});

test("localDay is the local calendar day", () => {
  assert.equal(localDay(new Date(2026, 10, 29, 23, 59)), localDay(new Date(2026, 10, 29, 0, 0)));
  assert.notEqual(localDay(new Date(2026, 10, 29, 23, 59)), localDay(new Date(2026, 10, 30, 0, 0)));
});
