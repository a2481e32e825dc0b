import assert from "node:assert/strict";
import { test } from "node:test";
import type { ContextItem, PromptPart } from "../../../../src/core/model/context";
import { buildPrompt, promptPartsText, refOf, textWithContext } from "../../../../src/core/prompt/blocks";
import { imageItem } from "../../../../src/core/prompt/images";
import { fileRef, folderRef, selectionRef, threadRef } from "../../../../src/core/prompt/refs";

const files: Record<string, string> = {
  "/ws/src/greet.js": "function greet(name) {\n  return 'hi ' + name;\n}\n",
  "/ws/big.log": "x".repeat(300_000),
  "/ws/blob.bin": "PK\u0000\u0001binary",
};
const sources = {
  readText: async (p: string) => files[p],
  threadText: async (id: string) => (id === "t1" ? "User: earlier question\n\nAssistant: earlier answer" : undefined),
};
const text = (t: string): PromptPart => ({ type: "text", text: t });
const ctx = (item: ContextItem): PromptPart => ({ type: "context", item });
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

test("without embeddedContext a file mention is a resource_link between the text blocks, in order", async () => {
  const built = await buildPrompt(
    [text("explain "), ctx(fileRef("/ws/src/greet.js")), text(" please")],
    { embeddedContext: false },
    sources,
  );
  assert.deepEqual(built.blocks, [
    { type: "text", text: "explain " },
    {
      type: "resource_link",
      uri: "file:///ws/src/greet.js",
      name: "greet.js",
      mimeType: "text/javascript",
      title: "/ws/src/greet.js",
    },
    { type: "text", text: " please" },
  ]);
  assert.equal(built.text, "explain @greet.js please");
  assert.equal(built.refs[0].sent, "link");
});

test("with embeddedContext a file is embedded with its current text; a selection with its captured text and range", async () => {
  const sel: ContextItem = { ...selectionRef("/ws/src/greet.js", { start: 2, end: 2 }), content: "UNSAVED line\n" };
  const built = await buildPrompt(
    [ctx(fileRef("/ws/src/greet.js")), text(" vs "), ctx(sel)],
    { embeddedContext: true },
    sources,
  );
  assert.deepEqual(built.blocks[0], {
    type: "resource",
    resource: { uri: "file:///ws/src/greet.js", text: files["/ws/src/greet.js"], mimeType: "text/javascript" },
  });
  assert.deepEqual(built.blocks[2], {
    type: "resource",
    resource: { uri: "file:///ws/src/greet.js#L2:2", text: "UNSAVED line\n", mimeType: "text/javascript" },
  });
  assert.deepEqual(
    built.refs.map((r) => [r.kind, r.label, r.sent]),
    [
      ["file", "greet.js", "embedded"],
      ["selection", "greet.js:2", "embedded"],
    ],
  );
  assert.ok(!("content" in built.refs[1]), "refs never carry the text");
});

test("a selection without captured text is sliced from the file; without embeddedContext it is a ranged link", async () => {
  const sel = selectionRef("/ws/src/greet.js", { start: 1, end: 2 });
  const embedded = await buildPrompt([ctx(sel)], { embeddedContext: true }, sources);
  assert.equal(
    (embedded.blocks[0] as { resource: { text: string } }).resource.text,
    "function greet(name) {\n  return 'hi ' + name;\n",
  );
  const linked = await buildPrompt([ctx(sel)], {}, sources);
  assert.equal((linked.blocks[0] as { uri: string }).uri, "file:///ws/src/greet.js#L1:2");
  assert.equal(linked.refs[0].sent, "link");
});

test("files too large or binary go as links even when embedding is allowed, with a note for the large one", async () => {
  const built = await buildPrompt(
    [ctx(fileRef("/ws/big.log")), ctx(fileRef("/ws/blob.bin"))],
    { embeddedContext: true },
    sources,
  );
  assert.deepEqual(
    built.blocks.map((b) => b.type),
    ["resource_link", "resource_link"],
  );
  assert.match(built.notes.join("\n"), /big\.log: 300,000 characters, sent as a link/);
});

test("the prompt-wide embedding budget turns later files into links", async () => {
  const built = await buildPrompt(
    [ctx(fileRef("/ws/src/greet.js")), ctx(fileRef("/ws/src/greet.js"))],
    { embeddedContext: true },
    sources,
    { maxPromptEmbedChars: 60 },
  );
  assert.deepEqual(
    built.blocks.map((b) => b.type),
    ["resource", "resource_link"],
  );
});

test("folders are links; threads and diagnostics are embedded, or inline text without embeddedContext", async () => {
  const diag: ContextItem = {
    kind: "diagnostic",
    label: "greet.js:2 error",
    uri: "file:///ws/src/greet.js#L2:2",
    path: "/ws/src/greet.js",
    range: { start: 2, end: 2 },
    content: "error TS2304: Cannot find name 'nam'.",
  };
  const parts = [ctx(folderRef("/ws/src")), ctx(threadRef("t1", "Earlier thread")), ctx(diag)];
  const embedded = await buildPrompt(parts, { embeddedContext: true }, sources);
  assert.deepEqual(
    embedded.blocks.map((b) => b.type),
    ["resource_link", "resource", "resource"],
  );
  assert.equal((embedded.blocks[0] as { uri: string }).uri, "file:///ws/src/");
  assert.match((embedded.blocks[1] as { resource: { text: string } }).resource.text, /earlier answer/);
  const plain = await buildPrompt(parts, {}, sources);
  assert.deepEqual(
    plain.blocks.map((b) => b.type),
    ["resource_link", "text"],
  );
  assert.match(
    (plain.blocks[1] as { text: string }).text,
    /<context ref="acp-threads:\/\/thread\/t1"[^>]*>\nUser: earlier/,
  );
  assert.match((plain.blocks[1] as { text: string }).text, /Cannot find name 'nam'/);
  await assert.rejects(buildPrompt([ctx(threadRef("gone", "x"))], {}, sources), /thread "x" was not found/);
});

test("images need promptCapabilities.image: sent as image blocks, else the prompt is refused before sending", async () => {
  const img = imageItem(PNG, "shot.png");
  const built = await buildPrompt([text("what is this "), ctx(img)], { image: true }, sources);
  assert.deepEqual(built.blocks[1], {
    type: "image",
    data: Buffer.from(PNG).toString("base64"),
    mimeType: "image/png",
  });
  assert.equal(built.refs[0].sent, "image");
  assert.ok(!("data" in built.refs[0]));
  await assert.rejects(
    buildPrompt([ctx(img)], { image: false }, sources, { agentName: "Demo agent" }),
    /Demo agent does not accept images/,
  );
});

test("refOf drops transient content", () => {
  const ref = refOf({ ...fileRef("/a/b.txt"), content: "secret text", data: new Uint8Array(1) });
  assert.deepEqual(ref, { kind: "file", label: "b.txt", uri: "file:///a/b.txt", path: "/a/b.txt" });
});

test("a typed prompt with --file / --image context: mentions follow the text, images are not in it", () => {
  const parts = textWithContext("explain", [fileRef("/ws/a.ts"), imageItem(PNG, "shot.png")]);
  assert.equal(promptPartsText(parts), "explain @a.ts");
  assert.deepEqual(
    parts.map((p) => p.type),
    ["text", "context", "context"],
  );
  assert.deepEqual(textWithContext("", []), []);
});
