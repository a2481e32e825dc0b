// HostAsks.take (#35): an answer that names no question takes the only one waiting of its kind; with more than one
// waiting it is refused `ambiguous`, listing each (id and title), and none is settled: the person may have read
// another than the host would have taken (before, the oldest was taken).
import assert from "node:assert/strict";
import { test } from "node:test";
import { HostAsks, type AskPush } from "../../../../src/core/host/host-asks";
import { HostRefusal } from "../../../../src/core/host/protocol-refusal";

const question = (requestId: string, title: string): AskPush => ({
  t: "question",
  question: { threadId: "t1", requestId, title, options: [{ optionId: "yes", name: "Allow", kind: "allow_once" }] },
});

test("take without a request id: the only ask waiting, or an `ambiguous` refusal listing them all", async () => {
  const sent: AskPush[] = [];
  const told: string[] = [];
  const asks = new HostAsks({ threadId: "t1", send: (m) => sent.push(m), tell: (m) => told.push(m.requestId) });
  const signal = new AbortController().signal;
  const open = (id: string, title: string) =>
    asks.open<string>(id, question(id, title), signal, (optionId) => ({ optionId }));
  const first = open("q1", "Write a.txt");
  const second = open("q2", "Write b.txt");
  assert.equal(sent.length, 2);

  assert.throws(
    () => asks.take("question"),
    (err: unknown) => {
      assert.ok(err instanceof HostRefusal);
      assert.equal(err.reason, "ambiguous");
      assert.deepEqual(err.pending, [
        { requestId: "q1", title: "Write a.txt" },
        { requestId: "q2", title: "Write b.txt" },
      ]);
      assert.match(err.message, /thread t1 has 2 questions pending \(q1, q2\), so none was answered/);
      return true;
    },
  );
  assert.deepEqual(told, [], "nothing settled");
  assert.equal(asks.pending.length, 2, "both still waiting");
  // no elicitation waits: that kind is not ambiguous
  assert.throws(() => asks.take("elicitation"), /has no elicitation pending/);

  // naming one takes it, whatever else waits
  asks.take("question", "q2").settle("yes", "a terminal");
  assert.equal(await second, "yes");
  // now only one waits: taken without its id
  const only = asks.take("question");
  assert.equal(only.push.t === "question" && only.push.question.requestId, "q1");
  only.settle("yes", "a terminal");
  assert.equal(await first, "yes");
  assert.deepEqual(told, ["q2", "q1"]);
});
