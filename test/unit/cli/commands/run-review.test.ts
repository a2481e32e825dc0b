// `acp-threads run --thread ID --review FILE`: review comments (`path:line: comment`) sent as the thread's next
// turn, the code quoted: embedded resources for an agent that takes embedded context, fenced text otherwise (the
// stdio fake agent's "context" scenario lists the blocks it received). A bad line is refused before anything is
// sent.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { conversation } from "../../../../src/core/thread/conversation";
import { FAKE_AGENT, runCli, type CliResult } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const cli = (args: string[], dir: string) => runCli(args, { home: join(dir, "home"), cwd: join(dir, "ws") });
const summaryOf = (r: CliResult) => JSON.parse(r.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
const EMBEDDED = ["--env", "FAKE_AGENT_PROMPT_CAPS=embeddedContext"];

/** A workspace with a file, and a thread started in it. */
async function setUp(dir: string): Promise<string> {
  mkdirSync(join(dir, "ws", "src"), { recursive: true });
  writeFileSync(join(dir, "ws", "src", "a.ts"), "const a = 1;\r\nconst b = 2;\r\nexport { a, b };\r\n");
  const first = await cli(["run", "--agent", FAKE_AGENT, "--format", "json", "hello"], dir);
  assert.equal(first.code, 0, first.stderr);
  return summaryOf(first).threadId as string;
}

const userTexts = (dir: string, threadId: string) =>
  conversation(new ThreadStore(join(dir, "home")).read(threadId).records)
    .filter((e) => e.role === "user")
    .map((e) => e.text);

test("--review sends each comment with its code as an embedded resource when the agent takes them", () =>
  withTmpDir("acp-cli-review-", async (dir) => {
    const threadId = await setUp(dir);
    writeFileSync(
      join(dir, "review.txt"),
      "# turn 1\nsrc/a.ts:2: call it two\r\nsrc/a.ts:1-3: export default instead\n",
    );
    const r = await cli(["run", "--thread", threadId, ...EMBEDDED, "--review", "../review.txt", "context"], dir);
    assert.equal(r.code, 0, r.stderr);
    const file = `file://${dir}/ws/src/a.ts`;
    assert.equal(
      r.stdout.trim(),
      [
        `text "context\\n\\n1. src/a.ts:2: call it two\\n"`,
        `resource ${file}#L2:2 "const b = 2;"`,
        `text "\\n\\n2. src/a.ts:1-3: export default instead\\n"`,
        `resource ${file}#L1:3 "const a = 1;"`,
      ].join("\n"),
    );
    // the transcript names the quotes as chips
    assert.match(
      userTexts(dir, threadId).at(-1)!,
      /1\. src\/a\.ts:2: call it two\n@a\.ts:2\n\n2\. src\/a\.ts:1-3: export default instead\n@a\.ts:1-3$/,
    );
  }));

test("without embedded context the quotes go as fenced text; PROMPTs after the first are later turns", () =>
  withTmpDir("acp-cli-review-", async (dir) => {
    const threadId = await setUp(dir);
    writeFileSync(join(dir, "ws", "notes.txt"), "src/a.ts:3: also export c\n");
    const r = await cli(["run", "--thread", threadId, "--review", "notes.txt", "context", "next"], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^text "context\\n\\n1\. src\/a\.ts:3: also export c\\n```\\nexport \{ a, b \};\\n```\\n"\n/,
    );
    assert.match(r.stdout, /echo: next/);
    const texts = userTexts(dir, threadId);
    assert.equal(texts.at(-2), "context\n\n1. src/a.ts:3: also export c\n```\nexport { a, b };\n```\n");
    assert.equal(texts.at(-1), "next");
  }));

test("--review alone opens with the default line", () =>
  withTmpDir("acp-cli-review-", async (dir) => {
    const threadId = await setUp(dir);
    writeFileSync(join(dir, "ws", "notes.txt"), "src/a.ts:1: one\n");
    const r = await cli(["run", "--thread", threadId, "--review", "notes.txt"], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /echo: Review comments on your changes\./);
  }));

test("a bad review line, a path outside the workspace, a line past the end or an empty file: exit 2, nothing sent", () =>
  withTmpDir("acp-cli-review-", async (dir) => {
    const threadId = await setUp(dir);
    writeFileSync(join(dir, "secret.txt"), "s\n");
    const cases: [string, RegExp][] = [
      [
        "src/a.ts:1: fine\nnot a comment line\n",
        /bad\.txt:2: cannot read 'not a comment line': expected 'path:line: comment'/,
      ],
      ["../secret.txt:1: leak it\n", /bad\.txt:1: \.\.\/secret\.txt is outside the workspace/],
      [`${dir}/secret.txt:1: leak it\n`, /bad\.txt:1: .*secret\.txt is outside the workspace/],
      ["src/a.ts:2-9: too far\n", /bad\.txt:1: src\/a\.ts: line 9 is past the end of the file \(3 lines\)/],
      ["\n", /bad\.txt has no review comments/],
    ];
    for (const [text, message] of cases) {
      writeFileSync(join(dir, "ws", "bad.txt"), text);
      const r = await cli(["run", "--thread", threadId, "--review", "bad.txt", "context"], dir);
      assert.equal(r.code, 2, `${text}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
    const missing = await cli(["run", "--thread", threadId, "--review", "nope.txt"], dir);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--review nope\.txt: cannot read it/);
    assert.deepEqual(userTexts(dir, threadId), ["hello"], "nothing was sent");
    const noPrompt = await cli(["run", "--thread", threadId], dir);
    assert.equal(noPrompt.code, 2);
    assert.match(noPrompt.stderr, /missing argument: PROMPT/);
  }));
