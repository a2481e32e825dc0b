// #35: a prompt box's sends resolve their parts off the host's thread (a thread mention is looked up on the disk); a
// later send that needs no look must not overtake an earlier one still looking.
import assert from "node:assert/strict";
import { test } from "node:test";
import { deferred } from "../../../fixtures/deferred";
import { InOrder } from "../../../../src/vscode/composer/in-order";

test("work for one key finishes in the order asked, even when the later work is quicker", async () => {
  const order = new InOrder();
  const done: string[] = [];
  const slow = deferred<string>();
  let secondStarted = false;
  const first = order.run("t1", () => slow.promise).then((v) => void done.push(v));
  const second = order
    .run("t1", () => {
      secondStarted = true;
      return Promise.resolve("second (no look)");
    })
    .then((v) => void done.push(v));
  await Promise.resolve();
  assert.equal(secondStarted, false, "the later work waits for the earlier one");
  slow.resolve("first (looked up on disk)");
  await Promise.all([first, second]);
  assert.deepEqual(done, ["first (looked up on disk)", "second (no look)"]);
});

test("a failed work rejects its own caller only; the next one still runs", async () => {
  const order = new InOrder();
  const failing = deferred<string>();
  const a = order.run("t1", () => failing.promise);
  const b = order.run("t1", () => Promise.resolve("next"));
  failing.reject(new Error("the thread no longer exists"));
  await assert.rejects(a, /no longer exists/);
  assert.equal(await b, "next");
});

test("other keys do not wait", async () => {
  const order = new InOrder();
  const slow = deferred<string>();
  const a = order.run("t1", () => slow.promise);
  assert.equal(await order.run("t2", () => Promise.resolve("other thread")), "other thread");
  slow.resolve("t1");
  assert.equal(await a, "t1");
});
