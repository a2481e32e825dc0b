// untilAborted: a wait given up on by its signal never leaves the promise it waited for unobserved.
import assert from "node:assert/strict";
import { test } from "node:test";
import { untilAborted } from "../../../src/core/abort";

const settle = () => new Promise((r) => setImmediate(r));

/** A promise and the hand that rejects it later (an agent's start failing once the caller closed it). */
function later(): { p: Promise<never>; fail: (err: Error) => void } {
  let fail!: (err: Error) => void;
  const p = new Promise<never>((_, reject) => (fail = reject));
  return { p, fail };
}

async function unhandledDuring(run: () => Promise<void>): Promise<unknown[]> {
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);
  process.on("unhandledRejection", onUnhandled);
  try {
    await run();
    await settle();
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
  return unhandled;
}

test("a signal aborted before the wait: 'stopped' at once, and the promise's later rejection is not unhandled", async () => {
  const unhandled = await unhandledDuring(async () => {
    const stop = new AbortController();
    stop.abort();
    const { p, fail } = later();
    await assert.rejects(untilAborted(p, stop.signal), /stopped/);
    fail(new Error("ACP connection closed"));
  });
  assert.deepEqual(unhandled, []);
});

test("a signal aborted during the wait: 'stopped', and the promise's later rejection is not unhandled", async () => {
  const unhandled = await unhandledDuring(async () => {
    const stop = new AbortController();
    const { p, fail } = later();
    const waiting = untilAborted(p, stop.signal);
    stop.abort();
    await assert.rejects(waiting, /stopped/);
    fail(new Error("ACP connection closed"));
  });
  assert.deepEqual(unhandled, []);
});

test("without an abort the wait is the promise's own outcome", async () => {
  assert.equal(await untilAborted(Promise.resolve(7), new AbortController().signal), 7);
  await assert.rejects(untilAborted(Promise.reject(new Error("boom")), new AbortController().signal), /boom/);
  assert.equal(await untilAborted(Promise.resolve(8), undefined), 8);
});
