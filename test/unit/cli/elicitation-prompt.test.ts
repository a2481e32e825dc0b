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
