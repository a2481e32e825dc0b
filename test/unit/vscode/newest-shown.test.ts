// #35: a panel's ops strip is worked out off the host's thread (its file looked at asynchronously); two answers that
// cross must never leave the older state on screen.
import assert from "node:assert/strict";
import { test } from "node:test";
import { deferred } from "../../fixtures/deferred";
import { newestShown } from "../../../src/vscode/newest-shown";

test("an older answer that arrives after a newer one was shown is dropped", async () => {
  const shown: string[] = [];
  const show = newestShown<string>((v) => void shown.push(v));
  const older = deferred<string>();
  const newer = deferred<string>();
  const a = show(older.promise);
  const b = show(newer.promise);
  newer.resolve("stored: false (deleted)");
  await b;
  older.resolve("stored: true");
  await a;
  assert.deepEqual(shown, ["stored: false (deleted)"]);
});

test("answers that come back in order are all shown, in order", async () => {
  const shown: number[] = [];
  const show = newestShown<number>((v) => void shown.push(v));
  const first = deferred<number>();
  const second = deferred<number>();
  const a = show(first.promise);
  const b = show(second.promise);
  first.resolve(1);
  await a;
  second.resolve(2);
  await b;
  assert.deepEqual(shown, [1, 2]);
});

test("a failed answer shows nothing and rejects; a later one still shows", async () => {
  const shown: string[] = [];
  const show = newestShown<string>((v) => void shown.push(v));
  await assert.rejects(show(Promise.reject(new Error("EIO"))), /EIO/);
  await show(Promise.resolve("after"));
  assert.deepEqual(shown, ["after"]);
});
