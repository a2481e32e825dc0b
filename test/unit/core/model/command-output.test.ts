// Shapes of a finished `echo hi` execute call as each real agent sent it (captured from codex-acp 0.16.0,
// claude-agent-acp 0.23.1, claude-code-acp 0.16.2, opencode 1.18.33 and gemini 0.61.0 against the scripted
// model; ids shortened). The interop test test/interop/command-output.test.ts checks the live agents.
import { test } from "node:test";
import assert from "node:assert/strict";
import { commandLine, commandOutput } from "../../../../src/core/model/command-output";
import type { ToolCallState } from "../../../../src/core/model/events";
import { ToolCallTracker } from "../../../../src/core/acp/normalize";

const base = { kind: "execute" as const, status: "completed" as const, locations: [], title: "echo hi" };

test("codex-acp: output, exit code and duration from its exec record in rawOutput", () => {
  const call: ToolCallState = {
    ...base,
    toolCallId: "call_1",
    content: [{ type: "terminal", terminalId: "call_1" }], // not a client terminal: nothing streams into it
    rawInput: { command: ["/bin/bash", "-lc", "echo hi"], cwd: "/ws" },
    rawOutput: {
      stdout: "hi\n",
      stderr: "",
      aggregated_output: "hi\n",
      exit_code: 0,
      duration: { secs: 1, nanos: 500_000_000 },
      formatted_output: "hi\n",
      status: "completed",
    },
  };
  assert.deepEqual(commandOutput(call), {
    command: "echo hi",
    output: "hi\n",
    source: "rawOutput",
    exitCode: 0,
    durationMs: 1500,
  });
});

test("claude-agent-acp: the _meta terminal_output stream", () => {
  const call: ToolCallState = {
    ...base,
    toolCallId: "toolu_1",
    content: [{ type: "terminal", terminalId: "toolu_1" }],
    rawInput: { command: "echo hi", description: "Run echo hi" },
    terminalOutput: "hi",
    rawOutput: "hi",
    startedAt: 1000,
    endedAt: 1250,
  };
  assert.deepEqual(commandOutput(call), { command: "echo hi", output: "hi", source: "meta", durationMs: 250 });
});

test("claude-code-acp: the client terminal's text and exit, or its rawOutput text after a reload", () => {
  const call: ToolCallState = {
    ...base,
    title: "Run echo hi",
    toolCallId: "toolu_2",
    content: [{ type: "terminal", terminalId: "term-1" }],
    rawInput: { command: "echo hi", description: "Run echo hi", timeout: 60000 },
    rawOutput: [{ type: "text", text: "Exited with code 0.Final output:\n\nhi\r\n" }],
  };
  const live = commandOutput(call, { text: "hi\r\n", exitCode: 0, signal: null });
  assert.equal(live.output, "hi\r\n");
  assert.equal(live.source, "terminal");
  assert.equal(live.exitCode, 0);
  const past = commandOutput(call);
  assert.deepEqual([past.output, past.exitCode, past.source], ["hi\r\n", 0, "rawOutput"]);
  const failed = commandOutput({
    ...call,
    rawOutput: [{ type: "text", text: "Exited with code 2.Final output:\n\nnope" }],
  });
  assert.deepEqual([failed.output, failed.exitCode], ["nope", 2]);
});

test("opencode: text content, exit code from rawOutput metadata", () => {
  const call: ToolCallState = {
    ...base,
    toolCallId: "call_3",
    content: [{ type: "content", content: { type: "text", text: "hi\n" } }],
    locations: [{ path: "/ws" }],
    rawInput: { command: "echo hi", workdir: "/ws" },
    rawOutput: { output: "hi\n", metadata: { output: "hi\n", exit: 0, truncated: false } },
  };
  assert.deepEqual(commandOutput(call), { command: "echo hi", output: "hi\n", source: "content", exitCode: 0 });
});

test("gemini sends no output at all: nothing is invented", () => {
  const call: ToolCallState = { ...base, toolCallId: "run_shell_command_1", content: [] };
  assert.deepEqual(commandOutput(call), {});
});

test("command lines: argv arrays are joined, shell -c wrappers unwrapped", () => {
  assert.equal(commandLine({ command: ["/bin/zsh", "-lc", "ls -la"] }), "ls -la");
  assert.equal(commandLine({ command: ["git", "commit", "-m", "a b"] }), 'git commit -m "a b"');
  assert.equal(commandLine({ cmd: "pwd" }), "pwd");
  assert.equal(commandLine("echo"), undefined);
});

test("the tool-call tracker stamps start and end for calls it saw running, not for replayed ones", () => {
  const t = new ToolCallTracker();
  const started = t.apply({ toolCallId: "a", kind: "execute", status: "in_progress" }, true)!;
  assert.equal(typeof started.startedAt, "number");
  assert.equal(started.endedAt, undefined);
  const done = t.apply({ toolCallId: "a", status: "completed" }, false)!;
  assert.ok(done.endedAt! >= done.startedAt!);
  const again = t.apply({ toolCallId: "a", kind: "execute", status: "completed" }, true)!; // a repeated full tool_call
  assert.equal(again.startedAt, started.startedAt);
  const replayed = t.apply({ toolCallId: "b", kind: "execute", status: "completed" }, true)!;
  assert.equal(replayed.startedAt, undefined);
  assert.equal(replayed.endedAt, undefined);
});

test("codex-acp 2.6 and pi-acp: output and exit from the _meta terminal_output(_delta) and terminal_exit updates", () => {
  for (const key of ["terminal_output", "terminal_output_delta"]) {
    const t = new ToolCallTracker();
    t.apply(
      {
        toolCallId: "call_1",
        kind: "execute",
        title: "echo hi",
        status: "in_progress",
        content: [{ type: "terminal", terminalId: "call_1" }],
        rawInput: { command: "echo hi", cwd: "/ws" },
        _meta: { terminal_info: { terminal_id: "call_1", cwd: "/ws" } },
      },
      true,
    );
    t.apply({ toolCallId: "call_1", _meta: { [key]: { terminal_id: "call_1", data: "hi\n" } } }, false);
    const done = t.apply(
      {
        toolCallId: "call_1",
        status: "completed",
        _meta: { terminal_exit: { terminal_id: "call_1", exit_code: 0, signal: null } },
      },
      false,
    )!;
    assert.deepEqual(done.terminalExit, { exitCode: 0, signal: null });
    const out = commandOutput(done);
    assert.deepEqual(
      [out.output, out.source, out.exitCode, out.signal, out.command],
      ["hi\n", "meta", 0, undefined, "echo hi"],
    );
  }
  const killed = new ToolCallTracker().apply(
    { toolCallId: "k", _meta: { terminal_exit: { exit_code: null, signal: "SIGTERM" } } },
    true,
  )!;
  assert.deepEqual([commandOutput(killed).exitCode, commandOutput(killed).signal], [undefined, "SIGTERM"]);
});

test("codex-acp 0.16: the first exec-record field with text wins (formatted_output may be empty, stdout not)", () => {
  const call: ToolCallState = {
    ...base,
    toolCallId: "call_1",
    content: [{ type: "terminal", terminalId: "call_1" }],
    rawInput: { command: ["/bin/bash", "-lc", "echo hi"] },
    rawOutput: { stdout: "hi\n", stderr: "", aggregated_output: "", formatted_output: "", exit_code: 0 },
    terminalExit: { exitCode: 0, signal: null },
  };
  const out = commandOutput(call);
  assert.deepEqual([out.output, out.source, out.exitCode], ["hi\n", "rawOutput", 0]);
  // every field empty: the command printed nothing
  const silent = commandOutput({ ...call, rawOutput: { stdout: "", stderr: "", formatted_output: "", exit_code: 0 } });
  assert.deepEqual([silent.output, silent.source], ["", "rawOutput"]);
});
