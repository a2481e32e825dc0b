// `acp-threads attach`'s view (#35): records are printed once across overlapping batches, a batch past the cursor
// (a gap) is not printed, and what other clients and agents name (who answered, the question, its options)
// reaches the terminal inert: no escape sequence.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AttachView } from "../../../src/cli/attach-view";
import { textOutput } from "../../../src/cli/output/turn-output";
import type { ThreadRecord } from "../../../src/core/model/records";
import { capturedIO } from "./in-process";

function view(from = 0) {
  const { io, out, err } = capturedIO({}, "/");
  return { v: new AttachView(io, textOutput(io.stdout, io.stderr), from), out, err };
}

const msg = (text: string): ThreadRecord =>
  ({ v: 1, ts: "2026-11-29T00:00:00.000Z", kind: "agent_message", messageId: text, text }) as ThreadRecord;

test("overlapping batches print each record once; a batch past the cursor prints nothing", () => {
  const { v, out } = view();
  v.show(0, [msg("a\n"), msg("b\n")]);
  v.show(1, [msg("b\n"), msg("c\n")]);
  v.show(5, [msg("z\n")]);
  assert.equal(out(), "a\nb\nc\n");
  assert.equal(v.cursor, 3);
});

test("hostile: who answered, the question and its options reach the terminal without escape sequences", async () => {
  const { v, err } = view();
  v.settled("yes\u001b[2J", "evil\u001b]0;pwned\u0007 client");
  await v.ask({
    threadId: "t",
    requestId: "r",
    title: "Run \u001b[31mrm\u001b[0m",
    options: [{ optionId: "o\u001b[1m", name: "Allow\u001b[8m", kind: "allow_once" }],
  });
  assert.ok(!err().includes("\u001b") && !err().includes("\u0007"), JSON.stringify(err()));
  assert.match(err(), /by evil/);
});

test("the watchdog's line once per change; on a terminal the agent's elicitation is asked, and closed when answered elsewhere", async () => {
  const { io, err } = capturedIO({}, "/");
  Object.assign(io.stdin, { isTTY: true });
  const v = new AttachView(io, textOutput(io.stdout, io.stderr), 0);
  assert.equal(v.elicits, true);
  const stalled = {
    alert: { kind: "stalled" as const, at: 0, message: "no update for 3 s", turnRunning: true },
    next: "cancel" as const,
    running: undefined,
    history: [],
    exhausted: false,
    auto: false,
  };
  v.watchdog(stalled);
  v.watchdog(stalled);
  v.watchdog({ ...stalled, alert: undefined, next: undefined });
  assert.equal(err().match(/watchdog: no update for 3 s; would: cancel/g)?.length, 1, err());

  const form = {
    threadId: "t",
    requestId: "r1",
    message: "Who is asking?",
    mode: "form" as const,
    form: { fields: [{ name: "name", title: "Name", required: true, kind: "string" as const }] },
  };
  const asked = v.elicit(form);
  io.stdin.write("Grace\n");
  assert.deepEqual(await asked, { action: "accept", content: { name: "Grace" } });
  const elsewhere = v.elicit({ ...form, requestId: "r2" });
  v.settled(null, "a window", { requestId: "r2", action: "decline" });
  assert.equal(await elsewhere, null);
  assert.match(err(), /the agent's question: decline by a window/);
});
