// Work nobody awaits and listeners that throw report to one handler instead of ending the process.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Emitter } from "../../../../src/core/lifecycle";
import { background, onUnexpectedError, setUnexpectedErrorHandler } from "../../../../src/core/util/unexpected";

function capture(): { seen: [string, unknown][]; restore: () => void } {
  const seen: [string, unknown][] = [];
  return { seen, restore: setUnexpectedErrorHandler((what, err) => seen.push([what, err])) };
}

const settle = () => new Promise((r) => setImmediate(r));

test("a rejected background promise reaches the handler, not unhandledRejection", async () => {
  const { seen, restore } = capture();
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);
  process.on("unhandledRejection", onUnhandled);
  try {
    background(Promise.reject(new Error("disk full")), "writing the state");
    await settle();
    assert.deepEqual(
      seen.map(([what, err]) => [what, (err as Error).message]),
      [["writing the state", "disk full"]],
    );
    assert.deepEqual(unhandled, []);
  } finally {
    process.off("unhandledRejection", onUnhandled);
    restore();
  }
});

test("background hands the error to its own onError, and reports an onError that throws", async () => {
  const { seen, restore } = capture();
  try {
    const handled: unknown[] = [];
    background(Promise.reject(new Error("a")), "one", (err) => handled.push(err));
    background(Promise.reject(new Error("b")), "two", () => {
      throw new Error("handler broke");
    });
    await settle();
    assert.equal((handled[0] as Error).message, "a");
    assert.deepEqual(
      seen.map(([what, err]) => [what, (err as Error).message]),
      [["two", "handler broke"]],
    );
  } finally {
    restore();
  }
});

test("a throwing or rejecting listener is reported and the other listeners still hear the event", async () => {
  const { seen, restore } = capture();
  try {
    const emitter = new Emitter<number>();
    const heard: number[] = [];
    emitter.event(() => {
      throw new Error("listener one broke");
    });
    emitter.event((n) => heard.push(n));
    emitter.event((async () => {
      throw new Error("async listener broke");
    }) as unknown as (n: number) => void);
    emitter.event((n) => heard.push(n * 10));
    emitter.fire(4);
    await settle();
    assert.deepEqual(heard, [4, 40]);
    assert.deepEqual(seen.map(([, err]) => (err as Error).message).sort(), [
      "async listener broke",
      "listener one broke",
    ]);
  } finally {
    restore();
  }
});

test("a handler that throws falls back to stderr instead of throwing into the caller", () => {
  const restore = setUnexpectedErrorHandler(() => {
    throw new Error("output channel disposed");
  });
  const write = process.stderr.write;
  let written = "";
  process.stderr.write = ((chunk: string) => ((written += chunk), true)) as typeof process.stderr.write;
  try {
    assert.doesNotThrow(() => onUnexpectedError("saving", new Error("EACCES")));
  } finally {
    process.stderr.write = write;
    restore();
  }
  assert.match(written, /saving failed: Error: EACCES/);
  assert.match(written, /reporting an error failed: Error: output channel disposed/);
});
