// #35: the events of the thread host's sessions a client missed while not connected, read back from the thread's
// records: the last run's turns between two times (turn_ended and usage as the host folds them), a question answered
// meanwhile, the run's end.
import assert from "node:assert/strict";
import { test } from "node:test";
import { lastRun, missedAnswer, missedEnd, missedTurns } from "../../../../src/core/host/missed-events";
import { stampRecord, type RecordInput, type ThreadRecord } from "../../../../src/core/model/records";

const T = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
const at = (s: number) => T(s).toISOString();
const rec = (s: number, r: RecordInput): ThreadRecord => stampRecord(r, T(s));
const open = (s: number) => rec(s, { kind: "session_open", agentSessionId: `a${s}`, origin: "new" });
const turnEnd = (s: number, tokens?: number) =>
  rec(s, {
    kind: "turn_end",
    stopReason: "end_turn",
    ...(tokens ? { usage: { inputTokens: tokens, outputTokens: 0, totalTokens: tokens } } : {}),
  });
const cost = (s: number, amount: number) =>
  rec(s, { kind: "usage", used: 100, size: 1000, cost: { amount, currency: "USD" } });
const edit = (s: number, path: string) =>
  rec(s, {
    kind: "tool_call",
    toolCall: {
      toolCallId: `e${s}`,
      title: "edit",
      kind: "edit",
      status: "completed",
      content: [],
      locations: [{ path }],
    },
  });

const earlier = [open(1), rec(2, { kind: "user_message", text: "old", messageId: "m0" }), turnEnd(3)];
const run = [open(10), cost(11, 0.5), turnEnd(12, 30), edit(13, "/w/a.ts"), cost(14, 0.75), turnEnd(15), turnEnd(18)];

test("the last run is the records from its last session_open", () => {
  assert.deepEqual(lastRun([...earlier, ...run]), run);
  assert.deepEqual(lastRun(earlier.slice(1)), earlier.slice(1));
});

test("the turns missed: the last run's turn_end records after the cursor and before the subscription, folded as the host folds them", () => {
  const events = missedTurns("T", [...earlier, ...run], at(12), at(18));
  assert.deepEqual(events, [
    { kind: "turn_ended", threadId: "T", at: at(15), stopReason: "end_turn", filesChanged: ["/w/a.ts"] },
    // the session's cumulative cost 0.75 after 0.5: this turn's 0.25; the context of its usage record
    {
      kind: "usage",
      threadId: "T",
      at: at(15),
      cost: [{ currency: "USD", amount: 0.25 }],
      context: { used: 100, size: 1000 },
    },
  ]);
  // from the run's start: the first turn too (tokens and cost), never the earlier run's; the one at `before` is heard live
  const all = missedTurns("T", [...earlier, ...run], "", at(18));
  assert.deepEqual(
    all.map((e) => `${e.kind}@${e.at.slice(17, 19)}`),
    ["turn_ended@12", "usage@12", "turn_ended@15", "usage@15"],
  );
  const first = all[1];
  assert.ok(first?.kind === "usage");
  assert.deepEqual(first.tokens, { inputTokens: 30, outputTokens: 0, totalTokens: 30 });
  assert.deepEqual(first.cost, [{ currency: "USD", amount: 0.5 }]);
  assert.deepEqual(missedTurns("T", run, at(18), at(30)), [], "a turn heard is not read back");
});

test("a question answered while not connected: its permission record, the request id announced", () => {
  const q = { threadId: "T", requestId: "r1", toolCallId: "tc1", title: "run", options: [] };
  const decided = (s: number, decidedBy: "user" | "cancelled", optionId: string | null) =>
    rec(s, {
      kind: "permission",
      toolCallId: "tc1",
      title: "run",
      toolKind: "execute",
      optionId,
      optionKind: optionId ? "allow_once" : null,
      decidedBy,
    });
  assert.deepEqual(missedAnswer([...run, decided(20, "user", "allow")], q), {
    kind: "answered",
    threadId: "T",
    at: at(20),
    requestId: "r1",
    optionId: "allow",
    by: "a client of the thread host",
  });
  // a record that names who answered (hosted runs since stop 45) says so; an older one says "a client"
  const named = { ...decided(20, "user", "allow"), answeredBy: "acp-threads answer (pid 12)" };
  assert.equal((missedAnswer([...run, named], q) as { by: string }).by, "acp-threads answer (pid 12)");
  // the option's name as the record keeps it (env values already left out when it was written)
  const withName = { ...decided(20, "user", "allow"), optionName: "Allow once" };
  assert.equal((missedAnswer([...run, withName], q) as { optionName?: string }).optionName, "Allow once");
  assert.equal("optionName" in (missedAnswer([...run, decided(20, "user", "allow")], q) ?? {}), false);
  assert.equal(missedAnswer([...run, decided(20, "cancelled", null)], q)?.kind, "answered");
  assert.equal(
    (missedAnswer([...run, decided(20, "cancelled", null)], q) as { by: string }).by,
    "the agent (cancelled)",
  );
  assert.equal(
    missedAnswer([decided(0, "user", "allow"), ...run], q),
    undefined,
    "an earlier run's answer is not this one's",
  );
});

test("a run the host no longer holds ended: exit 1 with the message when its last record is an error", () => {
  assert.deepEqual(missedEnd("T", run, at(40)), { kind: "ended", threadId: "T", at: at(40), exitCode: 0 });
  assert.deepEqual(missedEnd("T", [...run, rec(19, { kind: "error", message: "agent crashed" })], at(40)), {
    kind: "ended",
    threadId: "T",
    at: at(40),
    exitCode: 1,
    error: "agent crashed",
  });
});
