import { test } from "node:test";
import assert from "node:assert/strict";
import type { ToolCallState } from "../../../../src/core/model/events";
import { ThreadModel } from "../../../../src/webview/thread/model";
import { emptyContext } from "../../../../src/webview/thread/transcript/context";
import { renderBlockEntry } from "../../../../src/webview/thread/transcript/entries";
import { stopReasonText } from "../../../../src/webview/thread/chrome/words";

const exec = (over: Partial<ToolCallState>): ToolCallState => ({
  toolCallId: "c1",
  title: "echo hi",
  kind: "execute",
  status: "completed",
  content: [],
  locations: [],
  ...over,
});
const draw = (call: ToolCallState, ctx = { ...emptyContext(), cwd: "/ws" }) =>
  renderBlockEntry({ kind: "tool", call, version: 0 }, ctx);

test("a finished command shows its output, exit code and duration instead of an empty box", () => {
  const html = draw(
    exec({
      content: [{ type: "terminal", terminalId: "c1" }],
      rawOutput: { formatted_output: "hi\n", exit_code: 0, duration: { secs: 0, nanos: 400_000_000 } },
    }),
  );
  assert.match(html, /<pre class="term">hi<\/pre>/);
  assert.match(html, /class="badge ok"[^>]*>exit 0</);
  assert.match(html, />0.4 s</);
  const failed = draw(exec({ rawOutput: { output: "boom", exit_code: 2 } }));
  assert.match(failed, /class="badge bad"[^>]*>exit 2</);
});

test("a client terminal's streamed output and exit are shown; a silent agent says so", () => {
  const ctx = { ...emptyContext(), cwd: "/ws" };
  ctx.terminals.set("t1", { text: "\x1b[32mok\x1b[0m\n", exitCode: 1, signal: null });
  const html = draw(exec({ content: [{ type: "terminal", terminalId: "t1" }] }), ctx);
  assert.match(html, /<pre class="term">ok<\/pre>/);
  assert.match(html, /exit 1/);
  assert.match(draw(exec({})), /The agent did not send this command's output/);
  assert.match(draw(exec({ rawOutput: { output: "", exit_code: 0 } })), /No output/);
  assert.match(draw(exec({ status: "in_progress" })), /Running…/);
});

test("long output shows its last lines until expanded", () => {
  const text = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n");
  const ctx = { ...emptyContext(), cwd: "/ws" };
  const collapsed = draw(exec({ rawOutput: text }), ctx);
  assert.match(collapsed, /Show all 50 lines \(30 hidden above\)/);
  assert.doesNotMatch(collapsed, /line 29\n/);
  assert.match(collapsed, /line 30\n/);
  ctx.expanded.add("c1:out");
  const open = draw(exec({ rawOutput: text }), ctx);
  assert.match(open, /line 0\n/);
  assert.match(open, /Show less/);
});

test("titles, locations and permission text show workspace-relative paths", () => {
  const m = new ThreadModel();
  m.apply({
    type: "tool_call",
    toolCall: exec({
      toolCallId: "e1",
      kind: "edit",
      title: "Edit /ws/src/a.ts",
      locations: [{ path: "/ws/src/a.ts" }],
    }),
  });
  m.addPrompt({
    requestId: "r1",
    toolCallId: "e1",
    title: "Edit /ws/src/a.ts",
    kind: "edit",
    options: [
      { optionId: "yes", name: "Yes", kind: "allow_once" },
      { optionId: "no", name: "No, provide feedback", kind: "reject_once" },
    ],
  });
  assert.equal(m.entries.length, 1, "the prompt is attached to its tool call's card");
  const e = m.entries[0];
  const html = renderBlockEntry(e, { ...emptyContext(), cwd: "/ws" });
  assert.ok(!html.includes("/ws/src/a.ts\u003c"), "no absolute path is shown as text");
  assert.match(
    html,
    /<span class="tool-title">Edit <a class="loc"[^>]*data-path="\/ws\/src\/a.ts"[^>]*>src\/a.ts<\/a><\/span>/,
  );
  assert.match(html, /<kbd>1<\/kbd> Yes/);
  assert.match(html, /data-option="no"[^>]*data-feedback="1"/);
  const ctx = { ...emptyContext(), cwd: "/ws" };
  ctx.feedback.set("r1", { optionId: "no", text: "use tabs" });
  assert.match(renderBlockEntry(e, ctx), /<textarea[^>]*aria-label="Feedback for the agent"[^>]*>use tabs<\/textarea>/);
});

test("a request for a call not seen yet gets a card the call then fills in", () => {
  const m = new ThreadModel();
  m.addPrompt({ requestId: "r", toolCallId: "x", title: "A shell tool", kind: "execute", options: [] });
  m.apply({ type: "tool_call", toolCall: exec({ toolCallId: "x", title: "ls", status: "in_progress" }) });
  assert.equal(m.entries.length, 1);
  const e = m.entries[0] as Extract<(typeof m.entries)[0], { kind: "tool" }>;
  assert.equal(e.call.title, "ls");
  assert.equal(e.prompt?.view.requestId, "r");
});

test("stop reasons read as words", () => {
  assert.equal(stopReasonText("end_turn"), "Finished");
  assert.equal(stopReasonText("cancelled"), "Cancelled");
  assert.equal(stopReasonText("max_tokens"), "Hit the token limit");
  assert.equal(stopReasonText("something_new"), "Something new");
});

test("calls a finished turn left running show as not finished", () => {
  const m = new ThreadModel();
  m.apply({ type: "user_text", text: "go" });
  m.apply({ type: "tool_call", toolCall: exec({ toolCallId: "e", kind: "edit", status: "in_progress" }) });
  m.apply({ type: "done", stopReason: "cancelled" });
  const tool = m.entries[1] as Extract<(typeof m.entries)[0], { kind: "tool" }>;
  assert.equal(tool.call.status, "cancelled");
});

test("a Read file call's output keeps its line breaks; fenced output stays markdown", () => {
  const read = (text: string) =>
    draw(exec({ kind: "read", title: "Read a.txt", content: [{ type: "content", content: { type: "text", text } }] }));
  assert.match(read("line one\nline two\n"), /<pre class="term">line one\nline two<\/pre>/);
  assert.doesNotMatch(read("```\nfenced\n```"), /<pre class="term">/);
});
