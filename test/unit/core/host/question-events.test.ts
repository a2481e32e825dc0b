// A host's question in its events (`needs_input`, `answered`): names as the person saw them, with env values and
// key-like strings left out: `acp-threads events`, hooks and the extension's API are read by other tools and logs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { announced, questionAnswered } from "../../../../src/core/host/question-events";
import type { PendingQuestion } from "../../../../src/core/host/protocol";

const KEY = "sk-proj-a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6";
const question: PendingQuestion = {
  threadId: "T",
  requestId: "r1",
  toolCallId: "tc1",
  title: "run the tests",
  options: [
    {
      optionId: "proceed_always",
      name: `Yes, and don't ask again for \`OPENAI_API_KEY=${KEY} npm test\``,
      kind: "allow_always",
    },
    { optionId: "reject", name: "No", kind: "reject_once" },
  ],
};

test("an answer names its option as the person saw it, without env values or keys", () => {
  const e = questionAnswered(question, "proceed_always", "acp-threads answer (pid 7)", "t1");
  assert.deepEqual(e, {
    kind: "answered",
    threadId: "T",
    at: "t1",
    requestId: "r1",
    optionId: "proceed_always",
    optionName: "Yes, and don't ask again for `OPENAI_API_KEY=… npm test`",
    by: "acp-threads answer (pid 7)",
  });
  assert.doesNotMatch(JSON.stringify(e), /a1B2c3D4/);
});

test("a withdrawn question, or an option the question did not offer, has no name", () => {
  const withdrawn = questionAnswered(question, null, "the agent (cancelled)", "t2");
  assert.equal("optionName" in withdrawn, false);
  assert.equal(withdrawn.kind === "answered" && withdrawn.optionId, null);
  assert.equal("optionName" in questionAnswered(question, "unknown", "x", "t3"), false);
});

test("a question as events tell it: no proposed edit, its title and options' names without env values or keys", () => {
  const asked = {
    ...question,
    title: `OPENAI_API_KEY=${KEY} npm test`,
    proposed: { path: "/w/a.ts", oldText: null, newText: "x" },
  };
  const e = announced(asked);
  assert.equal("proposed" in e, false);
  assert.equal(e.title, "OPENAI_API_KEY=… npm test");
  assert.deepEqual(
    e.options.map((o) => [o.optionId, o.name, o.kind]),
    [
      ["proceed_always", "Yes, and don't ask again for `OPENAI_API_KEY=… npm test`", "allow_always"],
      ["reject", "No", "reject_once"],
    ],
  );
  assert.doesNotMatch(JSON.stringify(e), /a1B2c3D4/);
});
