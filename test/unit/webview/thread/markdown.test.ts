import { test } from "node:test";
import assert from "node:assert/strict";
import { renderMarkdown } from "../../../../src/webview/thread/markdown";

test("HTML in agent text is escaped, never rendered", () => {
  const html = renderMarkdown('<img src=x onerror="alert(1)"> **bold** <script>x</script>');
  assert.ok(!html.includes("<img"));
  assert.ok(!html.includes("<script"));
  assert.ok(html.includes("&lt;img"));
  assert.ok(html.includes("<strong>bold</strong>"));
});

test("links carry no live href, so javascript: URLs cannot run", () => {
  const html = renderMarkdown("[click](javascript:alert(1)) and [docs](https://example.com)");
  assert.ok(!/\shref=/.test(html));
  assert.ok(html.includes('data-href="https://example.com"'));
});

test("fenced code keeps its content verbatim and escaped", () => {
  const html = renderMarkdown("```ts\nconst a = 1 < 2 && **x**;\n```");
  assert.equal(html, '<pre data-lang="ts"><code>const a = 1 &lt; 2 &amp;&amp; **x**;</code></pre>');
});

test("headings, lists, inline code and quotes render", () => {
  const html = renderMarkdown("# Title\n\n- one `x`\n- two\n\n1. first\n\n> quoted");
  assert.match(html, /<h3>Title<\/h3>/);
  assert.match(html, /<ul><li>one <code>x<\/code><\/li><li>two<\/li><\/ul>/);
  assert.match(html, /<ol><li>first<\/li><\/ol>/);
  assert.match(html, /<blockquote>quoted<\/blockquote>/);
});

test("an unterminated fence during streaming still renders as code", () => {
  assert.match(renderMarkdown("text\n```\npartial"), /<pre><code>partial<\/code><\/pre>/);
});
