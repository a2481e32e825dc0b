import { test } from "node:test";
import assert from "node:assert/strict";
import { renderMarkdown } from "../../../../src/webview/thread/transcript/markdown";
import { MarkdownStream } from "../../../../src/webview/thread/transcript/markdown-stream";

/** Streams `text` in `n` chunks and returns what the DOM would hold after each step. */
function stream(text: string, n: number, s = new MarkdownStream()) {
  let done = "";
  const size = Math.ceil(text.length / n);
  for (let at = size; ; at += size) {
    const u = s.update(text.slice(0, Math.min(at, text.length)));
    if (u.reset) done = "";
    done += u.appended;
    if (at >= text.length) break;
  }
  const f = s.update(text, true);
  return { s, html: done + f.appended + f.tail, stable: done };
}

const SAMPLE = [
  "# Plan",
  "",
  "Intro paragraph with **bold** and a [link](https://example.com/a_(b)).",
  "",
  "- one",
  "  - one.a",
  "- two",
  "",
  "continued after the list",
  "",
  "| a | b |",
  "| - | - |",
  "| 1 | 2 |",
  "",
  "```ts",
  "const x = 1;",
  "",
  "const y = 2;",
  "```",
  "",
  "> quote line one",
  "> quote line two",
  "",
  "1. first",
  "2. second",
  "",
  "Final words.",
].join("\n");

test("streaming in any chunk size ends with exactly the full render", () => {
  const full = renderMarkdown(SAMPLE);
  for (const n of [1, 2, 3, 7, 20, SAMPLE.length]) assert.equal(stream(SAMPLE, n).html, full, `${n} chunks`);
});

test("finished blocks are rendered once; only the open block is redrawn", () => {
  const s = new MarkdownStream();
  s.update("# Title\n\nfirst para");
  const u = s.update("# Title\n\nfirst para\n\nsecond");
  assert.equal(u.reset, false);
  assert.match(u.appended, /<p>first para<\/p>/);
  assert.equal(u.tail, "<p>second</p>\n");
  const again = s.update("# Title\n\nfirst para\n\nsecond grows");
  assert.equal(again.appended, "");
  assert.equal(again.tail, "<p>second grows</p>\n");
});

test("an open code fence stays in the tail until something follows it", () => {
  const s = new MarkdownStream();
  const u1 = s.update("intro\n\n```js\nlet a = 1;\n");
  assert.match(u1.appended, /<p>intro<\/p>/);
  assert.match(u1.tail, /let a = 1;/);
  const u2 = s.update("intro\n\n```js\nlet a = 1;\n```\n\nafter");
  assert.match(u2.appended, /let a = 1;/);
  assert.equal(u2.tail, "<p>after</p>\n");
});

test("a list is not cut while more items can still come", () => {
  const s = new MarkdownStream();
  s.update("- a\n\n");
  const u = s.update("- a\n\n- b");
  assert.equal(u.appended, "");
  assert.match(u.tail, /<li>\s*<p>a<\/p>\s*<\/li>\s*<li>\s*<p>b<\/p>/);
});

test("text that is not an append resets the output", () => {
  const s = new MarkdownStream();
  s.update("one\n\ntwo");
  const u = s.update("different\n\ntext");
  assert.equal(u.reset, true);
  assert.match(u.appended, /different/);
});
