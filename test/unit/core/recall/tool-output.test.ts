import { test } from "node:test";
import assert from "node:assert/strict";
import { readableToolOutput } from "../../../../src/core/recall/tool-output";

test("Codex shell results wrapped in JSON become their readable text, with a failing exit code", () => {
  const ok = JSON.stringify({ output: "line one\nline two\n", metadata: { exit_code: 0, duration_seconds: 0.1 } });
  assert.equal(readableToolOutput(ok), "line one\nline two\n");
  const failed = JSON.stringify({ output: "npm ERR! missing script\n", metadata: { exit_code: 1 } });
  assert.equal(readableToolOutput(failed), "npm ERR! missing script\n[exit code 1]");
  assert.equal(
    readableToolOutput({ content: "webpack compiled with 2 warnings", metadata: { exit_code: 0 } }),
    "webpack compiled with 2 warnings",
  );
  assert.equal(readableToolOutput({ stdout: "out", stderr: "err", interrupted: false }), "out\nerr");
});

test("content items are joined; images and other items carry no text", () => {
  assert.equal(
    readableToolOutput([
      { type: "input_text", text: "first" },
      { type: "input_image", image_url: "data:..." },
      { type: "text", text: "second" },
    ]),
    "first\nsecond",
  );
  assert.equal(readableToolOutput(JSON.stringify([{ type: "text", text: "from a string" }])), "from a string");
});

test("anything else is kept exactly as it was", () => {
  for (const raw of [
    "plain text output",
    '{"output": "x", "rows": [1, 2]}', // data with keys we do not unwrap
    '{"broken json',
    "[1, 2, 3]",
    '{"name": "acp-threads", "version": "0.1.0"}',
  ])
    assert.equal(readableToolOutput(raw), raw);
  assert.equal(readableToolOutput({ rows: [1] }), '{"rows":[1]}');
  assert.equal(readableToolOutput(undefined), "");
});
