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
