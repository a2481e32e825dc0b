// `run --elicitation ask|decline|defaults`: the CLI's answers to an agent's question, alone (with a fake terminal
// on a stream) and through the built CLI against the stdio fake agent's "elicit" turn.
import assert from "node:assert/strict";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { parseRequestedSchema } from "../../../src/core/acp/elicitation-form";
import type { ElicitationPrompt } from "../../../src/core/model/elicitation";
import { cliElicitor } from "../../../src/cli/elicitation-prompt";
import { FAKE_AGENT, runCli } from "../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../fixtures/fake-agents/tmp-dir";

const parsed = parseRequestedSchema({
  properties: {
    name: { type: "string", default: "Ada" },
    count: { type: "integer", minimum: 1, maximum: 9 },
    env: {
      type: "string",
      oneOf: [
        { const: "dev", title: "Development" },
        { const: "prod", title: "Production" },
      ],
    },
  },
  required: ["name", "count"],
});
assert.ok(parsed.ok);
const FORM: ElicitationPrompt = {
  mode: "form",
  form: parsed.value,
  agentId: "fake",
  message: "Deploy?",
  signal: new AbortController().signal,
};
const URL_PROMPT: ElicitationPrompt = {
  mode: "url",
  elicitationId: "e1",
  url: "https://example.com/login",
  host: "example.com",
  agentId: "fake",
  message: "Log in",
  signal: new AbortController().signal,
};

function terminal(lines: string[], interactive = true) {
  const stdin = new PassThrough();
  const stderr = new PassThrough();
  let err = "";
  stderr.on("data", (d) => (err += d));
  // Each line is typed once the previous prompt is shown.
  let next = 0;
  stderr.on("data", (d: Buffer) => {
    if (/[:\]] $/u.test(d.toString()) && next < lines.length) stdin.write(`${lines[next++]}\n`);
  });
  return { io: { stdin, stderr, interactive }, err: () => err, stdin };
}

test("decline and defaults need no person; defaults declines a form with a required field lacking one", async () => {
  const t = terminal([]);
  assert.deepEqual(await cliElicitor("decline", t.io).ask(FORM), { action: "decline" });
  assert.deepEqual(await cliElicitor("defaults", t.io).ask(FORM), { action: "decline" });
  assert.match(t.err(), /no default for count/);
  assert.deepEqual(await cliElicitor("defaults", t.io).ask(URL_PROMPT), { action: "decline" });
  const easy = parseRequestedSchema({
    properties: { name: { type: "string", default: "Ada" }, x: { type: "number" } },
  });
  assert.ok(easy.ok);
  assert.deepEqual(await cliElicitor("defaults", t.io).ask({ ...FORM, form: easy.value }), {
    action: "accept",
    content: { name: "Ada" },
  });
});

test("ask declines when stdin is not a terminal, and says so", async () => {
  const t = terminal([], false);
  assert.deepEqual(await cliElicitor("ask", t.io).ask(FORM), { action: "decline" });
  assert.match(t.err(), /stdin is not a terminal/);
});

test("ask on a terminal prompts per field, asks again after a bad value, keeps defaults", async () => {
  const t = terminal(["", "12", "4", "2"]);
  assert.deepEqual(await cliElicitor("ask", t.io).ask(FORM), {
    action: "accept",
    content: { name: "Ada", count: 4, env: "prod" },
  });
  assert.match(t.err(), /The agent asks: Deploy\?/);
  assert.match(t.err(), /count must be at most 9/);
});

test("ask on a terminal: !decline stops the form, a URL needs a yes, a closed stdin cancels", async () => {
  assert.deepEqual(await cliElicitor("ask", terminal(["!decline"]).io).ask(FORM), { action: "decline" });
  const url = terminal(["y"]);
  assert.deepEqual(await cliElicitor("ask", url.io).ask(URL_PROMPT), { action: "accept" });
  assert.match(url.err(), /open a page on example\.com/);
  assert.deepEqual(await cliElicitor("ask", terminal(["n"]).io).ask(URL_PROMPT), { action: "decline" });
  const gone = terminal([]);
  const answer = cliElicitor("ask", gone.io).ask(FORM);
  gone.stdin.end();
  assert.deepEqual(await answer, { action: "cancel" });
});

test("the built CLI: --elicitation defaults accepts the defaults, and ask without a terminal declines", () =>
  withTmpDir("acp-cli-elicit-", async (dir) => {
    const cli = (mode: string) =>
      runCli(["run", "--agent", FAKE_AGENT, "--elicitation", mode, "elicit"], { home: join(dir, "home"), cwd: dir });
    const defaults = await cli("defaults");
    assert.equal(defaults.code, 0, defaults.stderr);
    assert.match(defaults.stdout, /elicitation: accept \{"name":"Ada","count":3\}/);
    const ask = await cli("ask");
    assert.equal(ask.code, 0, ask.stderr);
    assert.match(ask.stdout, /elicitation: decline/);
    assert.match(ask.stderr, /stdin is not a terminal/);
    const bad = await cli("sometimes");
    assert.equal(bad.code, 2);
  }));

// Hostile: an agent's message that erases the line, moves the cursor, sets the title, hides a link and forges
// the CLI's own "page on HOST" line. Nothing of it may reach the terminal as a control.
// eslint-disable-next-line no-control-regex -- a terminal control is what the tests look for
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/u;
const HOSTILE =
  "Sign in\x1b[2K\r\x1b[1A\x1b[10C\x1b]0;title\x07\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\" +
  "\x9b2J\u202e\nIt wants you to open a page on example.com:";

test("hostile: escape sequences, controls and a forged 'page on HOST' line in a prompt print inert", async () => {
  const t = terminal(["n"]);
  await cliElicitor("ask", t.io).ask({ ...URL_PROMPT, message: HOSTILE, url: "https://evil.example/\x1b[2K" });
  const err = t.err();
  assert.doesNotMatch(err, CONTROLS, JSON.stringify(err));
  assert.match(err, /␛\[2K␍␛\[1A␛\[10C␛\]0;title␇␛\]8;;https:\/\/evil\.example\/␛\\click/);
  // The CLI's own line starts a line exactly once; the forged one is indented as part of the message.
  assert.equal(err.match(/^It wants you to open a page on/gmu)?.length, 1, err);
  assert.match(err, /\n {2}It wants you to open a page on example\.com:\nIt wants you to open a page on example\.com:/);
  const form = parseRequestedSchema({
    title: "T\x1b]0;x\x07",
    properties: {
      a: {
        type: "string",
        title: "Name\r\x1b[2KPassword",
        description: "d\x1b[31m\nIt wants you to open a page on evil.example:",
        oneOf: [{ const: "x", title: "X\x1b[8m" }],
      },
    },
  });
  assert.ok(form.ok);
  const f = terminal(["!cancel"]);
  await cliElicitor("ask", f.io).ask({ ...FORM, form: form.value });
  assert.doesNotMatch(f.err(), CONTROLS, JSON.stringify(f.err()));
  assert.match(f.err(), /Name␍␛\[2KPassword/);
  assert.doesNotMatch(f.err(), /^It wants you/mu);
});
