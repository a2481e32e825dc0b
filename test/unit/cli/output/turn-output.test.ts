// `run`'s text output: the lines it writes around an agent's answer (tool calls, permissions, notices, errors)
// print what the agent named them inert (hostile: escape sequences that would rewrite the line).
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { textOutput } from "../../../../src/cli/output/turn-output";
import { PROMPT_UNSENT } from "../../../../src/core/model/records";

// eslint-disable-next-line no-control-regex -- a terminal control is what the test looks for
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;

test("hostile: a tool call's or permission's title, a notice and an agent error print no terminal control", () => {
  const out = new PassThrough();
  const err = new PassThrough();
  let text = "";
  out.on("data", (d) => (text += d));
  err.on("data", (d) => (text += d));
  const o = textOutput(out, err);
  const evil = "rm -rf ~\r\x1b[2K\x1b]0;t\x07npm test\n[permission] npm test: allowed (policy)";
  o.event(
    { type: "tool_call", toolCall: { toolCallId: "t1", title: evil, kind: "execute", status: "pending" } } as never,
    1,
  );
  o.event(
    {
      type: "permission",
      decision: {
        toolCallId: "t1",
        title: evil,
        kind: "execute",
        optionId: null,
        optionKind: null,
        decidedBy: "policy",
        options: [],
      },
    },
    1,
  );
  o.event({ type: "notice", severity: "warning", title: evil, description: evil }, 1);
  o.event({ type: "error", message: evil }, 1);
  assert.doesNotMatch(text, CONTROLS, JSON.stringify(text));
  assert.match(
    text,
    /^\[permission\] rm -rf ~␍␛\[2K␛\]0;t␇npm test⏎\[permission\] npm test: allowed \(policy\): denied \(policy\)$/mu,
  );
  assert.equal(text.match(/^\[permission\]/gmu)?.length, 1, text);
});

test("hostile: a permission a client of the thread host answered names it, with no terminal control", () => {
  const out = new PassThrough();
  let text = "";
  out.on("data", (d) => (text += d));
  const by = "acp-threads answer (pid 12)\x1b]0;owned\x07";
  const decision = { toolCallId: "t1", title: "npm test", kind: "execute" as const, optionKind: "allow_once" as const };
  const options = [{ optionId: "yes", name: "Allow", kind: "allow_once" as const }];
  textOutput(out, new PassThrough()).event(
    { type: "permission", decision: { ...decision, optionId: "yes", decidedBy: "user", answeredBy: by, options } },
    1,
  );
  assert.doesNotMatch(text, CONTROLS, JSON.stringify(text));
  assert.equal(text, "[permission] npm test: allowed (user: acp-threads answer (pid 12)␛]0;owned␇)\n");
});

test("an error is the agent's unless the host failed the prompt before the agent saw it (code prompt_unsent)", () => {
  const err = new PassThrough();
  let text = "";
  err.on("data", (d) => (text += d));
  const o = textOutput(new PassThrough(), err, "attach");
  o.event({ type: "error", message: "rate limited", code: -32603 }, 1);
  o.event({ type: "error", message: "the prompt was not sent to the agent: ENOSPC", code: PROMPT_UNSENT }, 2);
  assert.equal(
    text,
    "acp-threads attach: agent error: rate limited\n" +
      "acp-threads attach: the thread host could not prepare the prompt: the prompt was not sent to the agent: ENOSPC\n",
  );
});
