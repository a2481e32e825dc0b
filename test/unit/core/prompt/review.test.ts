import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { AcpThreadsError } from "../../../../src/core/errors";
import { buildPrompt } from "../../../../src/core/prompt/blocks";
import {
  formatReviewLine,
  parseReview,
  quoteLines,
  reviewComments,
  reviewPath,
  reviewPromptParts,
} from "../../../../src/core/prompt/review";

const ROOT = "/ws";
const FILES: Record<string, string> = {
  "/ws/src/greet.js": "function greet(name) {\n  return 'hi ' + name;\n}\n",
  "/ws/crlf.txt": "one\r\ntwo\r\nthree\r\n",
  "/ws/ticks.md": "```js\nx\n```\n",
};
const read = (p: string) => FILES[p];
const fails = (fn: () => unknown, code: string, re: RegExp) =>
  assert.throws(fn, (e: unknown) => e instanceof AcpThreadsError && e.code === code && re.test(e.message));

test("parses path:line and path:start-end lines, skipping blank and # lines", () => {
  const lines = parseReview("# review of turn 2\n\nsrc/greet.js:2: say hello\nsrc/greet.js:1-3:   whole function  \n");
  assert.deepEqual(lines, [
    { path: "src/greet.js", range: { start: 2, end: 2 }, body: "say hello", line: 3 },
    { path: "src/greet.js", range: { start: 1, end: 3 }, body: "whole function", line: 4 },
  ]);
});

test("a CRLF review file parses like an LF one, and a comment may hold colons", () => {
  const lines = parseReview("a.ts:1: one: two\r\nb.ts:2-4: x\r\n");
  assert.deepEqual(
    lines.map((l) => [l.path, l.range.start, l.range.end, l.body]),
    [
      ["a.ts", 1, 1, "one: two"],
      ["b.ts", 2, 4, "x"],
    ],
  );
});

test("a line that does not parse is refused, naming the file and the line", () => {
  fails(() => parseReview("a.ts:1: ok\nthis is not a comment\n", "notes.txt"), "usage", /^notes\.txt:2: cannot read/);
  fails(() => parseReview("a.ts:3:\n", "r"), "usage", /^r:1: cannot read 'a\.ts:3:'/);
  fails(() => parseReview("a.ts:0: zero\n", "r"), "usage", /^r:1: lines must be 1-based/);
  fails(() => parseReview("a.ts:5-2: backwards\n", "r"), "usage", /^r:1: lines must be 1-based/);
});

test("an empty review file (or one of blank and # lines only) is refused", () => {
  fails(() => parseReview("", "empty.txt"), "usage", /empty\.txt has no review comments/);
  fails(() => parseReview("\r\n# nothing\n   \n", "r"), "usage", /has no review comments/);
});

test("formatReviewLine reads back through parseReview", () => {
  const line = formatReviewLine({ path: "/ws/src/a.ts", range: { start: 3, end: 7 }, body: "two\nlines" }, ROOT);
  assert.equal(line, "src/a.ts:3-7: two lines");
  assert.deepEqual(parseReview(line)[0], { path: "src/a.ts", range: { start: 3, end: 7 }, body: "two lines", line: 1 });
  assert.equal(formatReviewLine({ path: "/ws/a.ts", range: { start: 4, end: 4 }, body: "x" }, ROOT), "a.ts:4: x");
});

test("paths outside the workspace are refused: ../, absolute elsewhere; absolute inside is fine", () => {
  fails(() => reviewPath("../etc/passwd", ROOT, "r:1"), "path_outside_workspace", /^r:1: \.\.\/etc\/passwd is outside/);
  fails(() => reviewPath("src/../../x", ROOT), "path_outside_workspace", /outside the workspace/);
  fails(() => reviewPath("/etc/passwd", ROOT), "path_outside_workspace", /\/etc\/passwd is outside/);
  fails(() => reviewPath("/wsx/a.ts", ROOT), "path_outside_workspace", /outside/);
  assert.equal(reviewPath("/ws/src/a.ts", ROOT), "/ws/src/a.ts");
  assert.equal(reviewPath("./src/../a.ts", ROOT), "/ws/a.ts");
});

test("a symlink inside the workspace that points out of it is refused", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "review-")));
  try {
    mkdirSync(join(dir, "ws"));
    writeFileSync(join(dir, "secret.txt"), "s\n");
    symlinkSync(join(dir, "secret.txt"), join(dir, "ws", "link.txt"));
    fails(() => reviewPath("link.txt", join(dir, "ws")), "path_outside_workspace", /link\.txt is outside/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("quoteLines: the lines asked for, CRLF read as LF, lines past the end refused", () => {
  assert.equal(quoteLines(FILES["/ws/src/greet.js"]!, { start: 2, end: 3 }), "  return 'hi ' + name;\n}");
  assert.equal(quoteLines(FILES["/ws/crlf.txt"]!, { start: 2, end: 3 }), "two\nthree");
  assert.equal(quoteLines("no newline at end", { start: 1, end: 1 }), "no newline at end");
  fails(
    () => quoteLines(FILES["/ws/src/greet.js"]!, { start: 3, end: 4 }, "g.js"),
    "usage",
    /^g\.js: line 4 is past the end of the file \(3 lines\)/,
  );
  fails(() => quoteLines("", { start: 1, end: 1 }), "usage", /past the end of the file \(0 lines\)/);
});

test("reviewComments checks every line before returning (one bad line: nothing)", () => {
  const ok = reviewComments(parseReview("src/greet.js:2: say hello\n"), ROOT, read, "r");
  assert.deepEqual(ok, [
    { path: "/ws/src/greet.js", range: { start: 2, end: 2 }, body: "say hello", quote: "  return 'hi ' + name;" },
  ]);
  fails(
    () => reviewComments(parseReview("src/greet.js:2: a\nsrc/greet.js:9: b\n"), ROOT, read, "r"),
    "usage",
    /^r:2: src\/greet\.js: line 9 is past the end/,
  );
  fails(
    () => reviewComments(parseReview("missing.js:1: a\n"), ROOT, read, "r"),
    "usage",
    /^r:1: no such file missing\.js/,
  );
  fails(() => reviewComments(parseReview("../out.js:1: a\n"), ROOT, read, "r"), "path_outside_workspace", /^r:1:/);
});

test("without embedded context the quotes go in the text as fenced blocks (a fence longer than any in the code)", async () => {
  const comments = reviewComments(parseReview("src/greet.js:2: say hello\nticks.md:1-3: fences\n"), ROOT, read);
  const parts = reviewPromptParts(comments, { embedded: false, root: ROOT, intro: "Fix these:" });
  assert.equal(parts.length, 1);
  const built = await buildPrompt(parts, { embeddedContext: false }, { readText: async () => undefined });
  assert.equal(built.blocks.length, 1);
  assert.equal(
    (built.blocks[0] as { text: string }).text,
    "Fix these:\n\n1. src/greet.js:2: say hello\n```\n  return 'hi ' + name;\n```\n\n2. ticks.md:1-3: fences\n````\n```js\nx\n```\n````\n",
  );
});

test("with embedded context each quote is an embedded resource naming the file and lines", async () => {
  const comments = reviewComments(parseReview("src/greet.js:1-2: rename\nsrc/greet.js:3: brace\n"), ROOT, read);
  const parts = reviewPromptParts(comments, { embedded: true, root: ROOT });
  const built = await buildPrompt(parts, { embeddedContext: true }, { readText: async () => undefined });
  assert.deepEqual(
    built.blocks.map((b) => b.type),
    ["text", "resource", "text", "resource"],
  );
  assert.match(
    (built.blocks[0] as { text: string }).text,
    /^Review comments on your changes\..*\n\n1\. src\/greet\.js:1-2: rename\n$/s,
  );
  assert.deepEqual(built.blocks[1], {
    type: "resource",
    resource: {
      uri: "file:///ws/src/greet.js#L1:2",
      text: "function greet(name) {\n  return 'hi ' + name;\n",
      mimeType: "text/javascript",
    },
  });
  assert.equal((built.blocks[2] as { text: string }).text, "\n\n2. src/greet.js:3: brace\n");
  assert.deepEqual(
    built.refs.map((r) => [r.label, r.sent]),
    [
      ["greet.js:1-2", "embedded"],
      ["greet.js:3", "embedded"],
    ],
  );
});

test("a review with no comments is refused", () => {
  fails(() => reviewPromptParts([], { embedded: true, root: ROOT }), "usage", /no comments/);
});
