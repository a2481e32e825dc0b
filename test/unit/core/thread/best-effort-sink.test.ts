import assert from "node:assert/strict";
import { test } from "node:test";
import type { MetadataPatch, RecordInput } from "../../../../src/core/model/records";
import { BestEffortSink } from "../../../../src/core/thread/best-effort-sink";
import type { ThreadSink } from "../../../../src/core/thread/live-thread";

/** A sink that records what it got and fails from the `failAt`-th write on (disk full, say). */
function flakySink(failAt: number) {
  const got: string[] = [];
  let closed = false;
  const write = (what: string) => {
    if (got.length + 1 >= failAt) throw new Error("ENOSPC: no space left on device");
    got.push(what);
  };
  const sink: ThreadSink = {
    threadId: "t1",
    path: "/threads/t1.jsonl",
    get closed() {
      return closed;
    },
    get size() {
      return got.length;
    },
    append: (input: RecordInput) => write(input.kind),
    patch: (_p: MetadataPatch) => write("patch"),
    sync: () => undefined,
    close: () => void (closed = true),
  };
  return { sink, got };
}

test("a store error is reported once, later records are dropped and the real sink is closed", () => {
  const { sink, got } = flakySink(3);
  const errors: unknown[] = [];
  const best = new BestEffortSink("t1", sink, (e) => errors.push(e));
  best.append({ kind: "user_message", messageId: "m1", text: "hi" });
  best.patch({ title: "hi" });
  assert.equal(best.recording, true);
  best.append({ kind: "agent_message", messageId: "m2", text: "lost" });
  best.append({ kind: "agent_message", messageId: "m3", text: "also lost" });
  best.sync();
  assert.deepEqual(got, ["user_message", "patch"]);
  assert.equal(errors.length, 1);
  assert.match(String(errors[0]), /ENOSPC/);
  assert.equal(best.recording, false);
  assert.equal(sink.closed, true, "the broken file is closed (its lock released)");
  best.close();
  assert.equal(best.closed, true);
});

test("without a sink (the thread could not be created) every write is a no-op", () => {
  const errors: unknown[] = [];
  const best = new BestEffortSink("t2", undefined, (e) => errors.push(e));
  best.append({ kind: "user_message", messageId: "m1", text: "hi" });
  best.patch({ status: "idle" });
  assert.deepEqual([best.recording, best.closed, best.path, errors.length], [false, false, "", 0]);
  best.close();
  assert.equal(best.closed, true);
});
