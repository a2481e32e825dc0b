import { test } from "node:test";
import assert from "node:assert/strict";
import { planSteps } from "../../fixtures/model-server/prompt-steps";
import { schemaValue } from "../../fixtures/model-server/schema-object";
import { decide, finalText, inferWorkspace, isMetaText } from "../../fixtures/model-server/script";
import type { ToolSpec } from "../../fixtures/model-server/tool-args";

test("prompts become ordered write, shell and read steps", () => {
  assert.deepEqual(planSteps("create hello.txt containing hi and run `echo hi`"), [
    { kind: "write", file: "hello.txt", content: "hi" },
    { kind: "shell", command: "echo hi" },
  ]);
  assert.deepEqual(planSteps("make notes.md containing hello and then read it back"), [
    { kind: "write", file: "notes.md", content: "hello" },
    { kind: "read", file: "notes.md" },
  ]);
  assert.deepEqual(planSteps('write a file named a/b.txt with content "x y", then run echo ok'), [
    { kind: "write", file: "a/b.txt", content: "x y" },
    { kind: "shell", command: "echo ok" },
  ]);
  assert.deepEqual(planSteps("请重构这个目录"), [{ kind: "shell", command: "ls -la" }]);
  assert.deepEqual(planSteps("what is 2 + 2?"), []);
});

test("agent-injected context is not mistaken for the user's message", () => {
  assert.equal(isMetaText("<environment_context>\n<cwd>/w</cwd>\n</environment_context>"), true);
  assert.equal(isMetaText("<system-reminder>x</system-reminder>"), true);
  assert.equal(isMetaText("# AGENTS.md instructions for /w"), true);
  assert.equal(
    isMetaText(
      "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>",
    ),
    true,
  );
  assert.equal(isMetaText("create a.txt containing <b>"), false);
  assert.equal(inferWorkspace("Primary working directory: /abs/ws\nIs a git repo", undefined), "/abs/ws");
  assert.equal(inferWorkspace("nothing here", "/fallback"), "/fallback");
});

test("tool arguments follow each tool's schema: argv arrays, required timeouts, workdirs", () => {
  const shell: ToolSpec = {
    name: "mcp__acp__Bash",
    kind: "function",
    schema: {
      type: "object",
      properties: { command: { type: "string" }, timeout: { type: "number", maximum: 600000 } },
      required: ["command", "timeout"],
    },
  };
  const argv: ToolSpec = {
    name: "shell",
    kind: "function",
    schema: { type: "object", properties: { command: { type: "array" }, workdir: { type: "string" } } },
  };
  const turn = { userText: "run `echo hi`", toolResults: [], context: "<cwd>/w</cwd>" };
  assert.deepEqual(decide({ ...turn, tools: [shell] }), {
    kind: "tool",
    call: { tool: shell, args: { command: "echo hi", timeout: 60000 } },
  });
  assert.deepEqual(decide({ ...turn, tools: [argv] }), {
    kind: "tool",
    call: { tool: argv, args: { command: ["bash", "-lc", "echo hi"], workdir: "/w" } },
  });
  assert.deepEqual(decide({ ...turn, tools: [argv], toolResults: ["hi"] }), {
    kind: "text",
    text: "Done: ran `echo hi`. Tool output: hi",
  });
});

test("requests without tools get a short text and schema requests a schema-shaped object", () => {
  assert.deepEqual(decide({ userText: "Summarize this session", toolResults: [], tools: [], context: "" }), {
    kind: "text",
    text: "Scripted: Summarize this session",
  });
  const schema = {
    type: "OBJECT",
    properties: {
      next_speaker: { type: "STRING", enum: ["user", "model"] },
      score: { type: "INTEGER", minimum: 1 },
      tags: { type: "ARRAY", items: { type: "STRING" } },
    },
  };
  assert.deepEqual(schemaValue(schema), { next_speaker: "user", score: 1, tags: ["scripted"] });
});

test("long prompts get a multi-KB markdown answer", () => {
  const text = finalText("explain everything ".repeat(80), [], []);
  assert.ok(text.length > 2000);
  assert.match(text, /^# Report\n/);
  assert.match(text, /\| key \| value \|/);
});

test("a past-sessions search calls the recall MCP tool under whatever namespace the agent gives it", () => {
  assert.deepEqual(planSteps("search past sessions for sqlite migration"), [
    { kind: "recall", query: "sqlite migration" },
  ]);
  for (const name of ["mcp__acp-threads__recall", "acp-threads_recall", "recall"]) {
    const tools: ToolSpec[] = [
      { name: `${name}_recent`, kind: "function" },
      { name, kind: "function", schema: { type: "object", properties: { query: { type: "string" } } } },
    ];
    const reply = decide({ userText: "search past sessions for hello", toolResults: [], tools, context: "" });
    assert.deepEqual(reply, { kind: "tool", call: { tool: tools[1], args: { query: "hello" } } });
  }
});
