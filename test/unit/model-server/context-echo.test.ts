import assert from "node:assert/strict";
import { test } from "node:test";
import { contextEcho } from "../../fixtures/model-server/context-echo";
import type { Turn } from "../../fixtures/model-server/script";

const turn = (userText: string, context: string): Turn => ({ userText, toolResults: [], tools: [], context });
const reply = (t: Turn, body: Record<string, unknown> = {}) => {
  const r = contextEcho(body, t);
  return r?.kind === "text" ? r.text : undefined;
};

test("without the trigger the normal script answers", () => {
  assert.equal(contextEcho({}, turn("create a.txt containing hi", "create a.txt containing hi")), undefined);
});

test("codex-acp / claude-agent-acp shapes: links and <context> blocks", () => {
  const ctx =
    "system prompt\necho the context of \n[@notes.txt](file:///ws/notes.txt)\n[@notes.txt#L2:3](file:///ws/notes.txt#L2:3)\n" +
    '<context ref="file:///ws/notes.txt#L2:3">\nSELECTED LINE\n</context>';
  assert.equal(
    reply(turn("echo the context of", ctx)),
    'Context received: embedded notes.txt#L2:3 file:///ws/notes.txt#L2:3: "SELECTED LINE"; link notes.txt file:///ws/notes.txt',
  );
});

test("gemini shape: @paths and 'Content from @' parts; images counted from the raw body", () => {
  const ctx =
    "echo the context @/ws/a.md\n--- Content from referenced files ---\nContent from @/ws/a.md:\nFILE TEXT\n" +
    "--- Content from referenced context ---\nContent from @file:///ws/a.md#L1:1:\nSEL";
  assert.equal(
    reply(turn("echo the context @/ws/a.md", ctx), {
      contents: [{ parts: [{ inlineData: { mimeType: "image/png" } }] }],
    }),
    'Context received: embedded a.md file:///ws/a.md: "FILE TEXT"; embedded a.md#L1:1 file:///ws/a.md#L1:1: "SEL"; images: 1',
  );
  assert.equal(reply(turn("echo the context", "echo the context")), "Context received: nothing");
});
