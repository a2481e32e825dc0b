import assert from "node:assert/strict";
import { test } from "node:test";
import type { ContextRef } from "../../../../../src/core/model/context";
import { partsFromTranscript, PromptHistory } from "../../../../../src/webview/thread/composer/history";
import { parseComposerMessage, partsText } from "../../../../../src/webview/thread/composer/protocol";
import { slashItems } from "../../../../../src/webview/thread/composer/slash";
import { sendWords } from "../../../../../src/webview/thread/composer/draft-controls";

const greet: ContextRef = {
  kind: "file",
  label: "greet.js",
  uri: "file:///ws/greet.js",
  path: "/ws/greet.js",
  sent: "embedded",
};

test("a recorded prompt comes back with its chips where the @labels were", () => {
  assert.deepEqual(partsFromTranscript("explain @greet.js please", [greet]), [
    { type: "text", text: "explain " },
    { type: "context", ref: { ...greet, sent: undefined } },
    { type: "text", text: " please" },
  ]);
  assert.deepEqual(partsFromTranscript("no chips"), [{ type: "text", text: "no chips" }]);
});

test("Up walks back from the newest prompt, Down walks forward and restores the draft", () => {
  const h = new PromptHistory();
  h.add([{ type: "text", text: "one" }]);
  h.add([{ type: "text", text: "two" }]);
  h.add([{ type: "text", text: "two" }]); // the same prompt twice in a row is kept once
  const draft = [{ type: "text" as const, text: "typing…" }];
  assert.deepEqual(h.prev(draft), [{ type: "text", text: "two" }]);
  assert.deepEqual(h.prev([]), [{ type: "text", text: "one" }]);
  assert.equal(h.prev([]), undefined, "nothing older");
  assert.deepEqual(h.next(), [{ type: "text", text: "two" }]);
  assert.deepEqual(h.next(), draft);
  assert.equal(h.browsing, false);
  assert.equal(h.next(), undefined);
});

test("slash completion: prefix matches first, with descriptions and input hints", () => {
  const items = slashItems(
    [
      { name: "review", description: "Review changes", hint: "what to focus on" },
      { name: "init", description: "Create AGENTS.md" },
      { name: "preview", description: "Preview" },
    ],
    "rev",
  );
  assert.deepEqual(
    items.map((i) => [i.label, i.detail]),
    [
      ["/review", "Review changes (what to focus on)"],
      ["/preview", "Preview"],
    ],
  );
  assert.deepEqual(items[0]!.command, { name: "review", hint: "what to focus on" });
});

test("composer messages from the webview are checked: bad parts, paths too long, unknown kinds are dropped", () => {
  assert.equal(parseComposerMessage({ type: "send", parts: [] }), undefined);
  assert.equal(
    parseComposerMessage({ type: "send", parts: [{ type: "context", ref: { kind: "exe", label: "x", uri: "y" } }] }),
    undefined,
  );
  assert.equal(
    parseComposerMessage({ type: "send", parts: [{ type: "text", text: "hi" }], mode: "forever" }),
    undefined,
  );
  assert.equal(parseComposerMessage({ type: "complete", seq: -1, trigger: "@", query: "" }), undefined);
  assert.deepEqual(
    parseComposerMessage({ type: "send", parts: [{ type: "text", text: "hi" }], agentId: "codex", mode: "run" }),
    {
      type: "send",
      parts: [{ type: "text", text: "hi" }],
      agentId: "codex",
      mode: "run",
    },
  );
  assert.equal(
    partsText([
      { type: "text", text: "see" },
      { type: "context", ref: greet },
      { type: "image", name: "a.png", data: "" },
    ]),
    "see@greet.js [1 image]",
  );
});

test("an Edit and resend from the box names the message, its text as sent and a rewind mode (#37)", () => {
  const parts = [{ type: "text", text: "again" }];
  const rewind = { message: 3, text: "before", mode: "conversation" };
  assert.deepEqual(parseComposerMessage({ type: "send", parts, rewind }), { type: "send", parts, rewind });
  for (const bad of [
    { ...rewind, mode: "everything" },
    { ...rewind, message: 0 },
    { ...rewind, message: 1.5 },
    { ...rewind, text: 5 },
  ])
    assert.equal(parseComposerMessage({ type: "send", parts, rewind: bad }), undefined, JSON.stringify(bad));
  assert.equal(
    parseComposerMessage({ type: "send", parts, rewind, agentId: "codex" }),
    undefined,
    "a draft has nothing to rewind",
  );
  assert.equal(parseComposerMessage({ type: "send", parts: [], command: "ls", rewind }), undefined);
});

test("a new thread's Best of N send carries `bestOf: true` only, never with a rewind or a command line (#37)", () => {
  const parts = [{ type: "text" as const, text: "try it\ntwo ways" }];
  assert.deepEqual(parseComposerMessage({ type: "send", parts, agentId: "fake", bestOf: true }), {
    type: "send",
    parts,
    agentId: "fake",
    bestOf: true,
  });
  assert.equal(parseComposerMessage({ type: "send", parts, bestOf: "yes" }), undefined);
  assert.equal(parseComposerMessage({ type: "send", parts, bestOf: false }), undefined);
  assert.equal(parseComposerMessage({ type: "send", parts: [], command: "ls", bestOf: true }), undefined);
  const rewind = { message: 1, text: "first", mode: "conversation" };
  assert.equal(parseComposerMessage({ type: "send", parts, rewind, bestOf: true }), undefined);
  assert.deepEqual(sendWords({ editing: false, draft: true, exec: false, busy: false, resumes: false, bestOf: true }), {
    label: "Best of N…",
    title:
      "Pick the agents, runs and a check command next; each candidate gets this prompt in a worktree of its own (Enter)",
  });
});
