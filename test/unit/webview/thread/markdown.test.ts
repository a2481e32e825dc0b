import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyHref, renderMarkdown, userMarkdown } from "../../../../src/webview/thread/transcript/markdown";
import { parseFenceInfo } from "../../../../src/webview/thread/transcript/code-block-html";

const squash = (s: string) => s.replace(/\n/g, "");

test("raw HTML in agent text is escaped, never rendered", () => {
  const html = renderMarkdown('<img src=x onerror="alert(1)"> **bold** <script>x</script>');
  assert.ok(!html.includes("<img"));
  assert.ok(!html.includes("<script"));
  assert.ok(html.includes("&lt;img"));
  assert.ok(html.includes("<strong>bold</strong>"));
});

test("links carry no live href: web links go to the host, javascript: links stay text", () => {
  const html = renderMarkdown("[click](javascript:alert(1)) and [docs](https://example.com)");
  assert.ok(!/\shref=/.test(html));
  assert.match(html, /<a data-href="https:\/\/example.com"[^>]*>docs<\/a>/);
  assert.match(html, /<a>click<\/a>/);
});

test("links whose URL contains parentheses keep the whole URL", () => {
  const html = renderMarkdown("see [Rust](https://en.wikipedia.org/wiki/Rust_(programming_language)) now");
  assert.match(html, /data-href="https:\/\/en.wikipedia.org\/wiki\/Rust_\(programming_language\)"/);
  assert.match(html, />Rust<\/a> now/);
});

test("file links open in the editor, with a line number", () => {
  assert.deepEqual(classifyHref("src/a.ts#L12"), { path: "src/a.ts", line: 12 });
  assert.deepEqual(classifyHref("/abs/b.py:7"), { path: "/abs/b.py", line: 7 });
  assert.deepEqual(classifyHref("file:///abs/c.md"), { path: "/abs/c.md" });
  assert.equal(classifyHref("vscode://x"), undefined);
  assert.match(renderMarkdown("[a](src/a.ts#L3)"), /data-path="src\/a.ts" data-line="3"/);
});

test("GFM tables render as tables", () => {
  const html = squash(renderMarkdown("| key | value |\n| --- | ---: |\n| n | 1 |\n| m | `2` |"));
  assert.match(html, /<div class="table-wrap"><table><thead><tr><th>key<\/th><th style="text-align:right">value<\/th>/);
  assert.match(
    html,
    /<tbody><tr><td>n<\/td><td style="text-align:right">1<\/td><\/tr><tr><td>m<\/td><td style="text-align:right"><code>2<\/code><\/td><\/tr><\/tbody>/,
  );
});

test("nested lists stay nested", () => {
  const html = squash(renderMarkdown("- one\n  - one.a\n    1. deep\n- two"));
  assert.match(html, /<ul><li>one<ul><li>one.a<ol><li>deep<\/li><\/ol><\/li><\/ul><\/li><li>two<\/li><\/ul>/);
});

test("a multi-line quote is one blockquote", () => {
  const html = squash(renderMarkdown("> first line\n> second line\n>\n> new para"));
  assert.equal((html.match(/<blockquote>/g) ?? []).length, 1);
  assert.equal(html, "<blockquote><p>first linesecond line</p><p>new para</p></blockquote>");
});

test("a 4-backtick fence can contain a 3-backtick fence", () => {
  const html = renderMarkdown("````md\n```js\nx\n```\n````\nafter");
  assert.match(html, /<code data-hl="md">```js\nx\n```<\/code>/);
  assert.match(html, /<p>after<\/p>/);
});

test("__bold__, ~~strike~~ and inline code", () => {
  const html = renderMarkdown("__bold__ and ~~gone~~ and `a < b`");
  assert.match(html, /<strong>bold<\/strong> and <s>gone<\/s> and <code>a &lt; b<\/code>/);
});

test("task lists become disabled checkboxes", () => {
  const html = squash(renderMarkdown("- [ ] todo\n- [x] done"));
  assert.match(html, /<li class="task"><input type="checkbox" disabled aria-label="to do"> todo<\/li>/);
  assert.match(html, /<input type="checkbox" disabled checked aria-label="done"> done/);
});

test("headings shift below the panel's own and images become links", () => {
  const html = renderMarkdown("# Title\n\n![diagram](https://x.test/a.png)");
  assert.match(html, /<h3>Title<\/h3>/);
  assert.ok(!html.includes("<img"));
  assert.match(html, /<a data-href="https:\/\/x.test\/a.png"[^>]*class="image-link">🖼 diagram<\/a>/);
});

test("user text keeps its line breaks; agent text follows CommonMark", () => {
  assert.match(renderMarkdown("a\nb", userMarkdown), /a<br>\nb/);
  assert.doesNotMatch(renderMarkdown("a\nb"), /<br>/);
});

test("code blocks get a toolbar, a highlight marker, and long ones start collapsed", () => {
  const short = renderMarkdown("```ts src/a.ts\nconst a = 1 < 2;\n```");
  assert.match(short, /data-file="src\/a.ts"/);
  assert.match(short, /<code data-hl="ts">const a = 1 &lt; 2;<\/code>/);
  assert.match(short, /class="icon-button code-copy"/);
  assert.match(short, /class="icon-button code-insert"/);
  assert.match(short, /aria-label="Apply to src\/a.ts…"/);
  const long = renderMarkdown("```\n" + Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n") + "\n```");
  assert.match(long, /code-block collapsible collapsed/);
  assert.match(long, /Show all 40 lines/);
  assert.doesNotMatch(long, /code-apply/); // no language: not offered as a file's content
  assert.doesNotMatch(renderMarkdown("```bash\nls\n```"), /code-apply/);
});

test("fence info strings name a language and maybe a file", () => {
  assert.deepEqual(parseFenceInfo("ts"), { lang: "ts" });
  assert.deepEqual(parseFenceInfo("ts src/a.ts"), { lang: "ts", path: "src/a.ts" });
  assert.deepEqual(parseFenceInfo("rust:src/main.rs"), { lang: "rust", path: "src/main.rs" });
  assert.deepEqual(parseFenceInfo("python title=tools/x.py"), { lang: "python", path: "tools/x.py" });
  assert.deepEqual(parseFenceInfo("lib/util.go"), { lang: "go", path: "lib/util.go" });
  assert.deepEqual(parseFenceInfo("ts {1,3}"), { lang: "ts" });
});

test("an unterminated fence during streaming still renders as code", () => {
  assert.match(renderMarkdown("text\n```\npartial"), /<code>partial<\/code>/);
});
