// `run`'s text output: the lines it writes around an agent's answer (tool calls, permissions, notices, errors)
// print what the agent named them inert (hostile: escape sequences that would rewrite the line).
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { textOutput } from "../../../../src/cli/output/turn-output";

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
