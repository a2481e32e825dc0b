// A turn with subagent work from the stdio fake agent (claude-agent-acp's `_meta.claudeCode.parentToolUseId`):
// `threads show --format json` has the `parentToolCallId` of each nested call, bad parents are kept top-level,
// and `threads export --format md` writes the subagent's calls inside its parent's block.
import assert from "node:assert/strict";
import { test } from "node:test";
import { clientInitializeParams } from "../../../../src/core/acp/initialize";
import { FAKE_AGENT, runCli } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

test("subagent tool calls are recorded with their parent and nested in the Markdown export", () =>
  withTmpDir("acp-subagents-", async (home) => {
    const run = await runCli(["run", "--agent", FAKE_AGENT, "--format", "json", "subagent"], { home });
    assert.equal(run.code, 0, run.stderr);
    const threadId = JSON.parse(run.stdout.trim().split("\n").at(-1)!).threadId as string;
    const show = await runCli(["threads", "show", threadId, "--format", "json"], { home });
    assert.equal(show.code, 0, show.stderr);
    type Rec = { kind: string; toolCall?: { toolCallId: string; parentToolCallId?: string } };
    const parents = new Map<string, string | null>();
    for (const r of (JSON.parse(show.stdout) as { records: Rec[] }).records)
      if (r.kind === "tool_call" && r.toolCall) parents.set(r.toolCall.toolCallId, r.toolCall.parentToolCallId ?? null);
    assert.deepEqual(Object.fromEntries(parents), {
      "sub-read-1": "task-1",
      "sub-grep-1": "task-1",
      "orphan-1": "no-such-parent",
      "odd-1": null,
      "task-1": null,
    });
    const md = await runCli(["threads", "export", threadId, "--format", "md"], { home });
    assert.equal(md.code, 0, md.stderr);
    const task = md.stdout.indexOf("Task: explore the repository");
    const taskEnd = md.stdout.indexOf("</details>", task);
    assert.ok(task > 0 && taskEnd > task, md.stdout);
    const inside = md.stdout.slice(task, taskEnd);
    assert.match(inside, /Subagent work \(2 tool calls\):/);
    assert.match(inside, / {2}- Tool: <b>Read README.md<\/b> · read · completed/);
    assert.match(inside, / {2}- Tool: <b>grep subagentNeedle<\/b> · search · failed/);
    assert.equal(md.stdout.split("Read README.md").length, 2, "a nested call is written once");
    assert.doesNotMatch(inside, /Orphan call|Odd parent/);
    assert.match(md.stdout, /^- Tool: <b>Orphan call<\/b>/m, "an unknown parent leaves the call top-level");
    assert.match(md.stdout, /^- Tool: <b>Odd parent<\/b>/m);
  }));

// codex-acp 2.6's "standard" subagent protocol (we advertise `clientCapabilities.subagents`): child sessions
// announced by `subagent_update` nest under codex's spawnAgent call, a grandchild under a call of its own.
test("codex child sessions are recorded under the spawning call, their text as its content", () =>
  withTmpDir("acp-codex-subagents-", async (home) => {
    const caps = clientInitializeParams().clientCapabilities as { subagents?: unknown };
    assert.deepEqual(caps.subagents, {}, "we advertise child sessions");
    const run = await runCli(["run", "--agent", FAKE_AGENT, "--format", "json", "codex-subagent"], { home });
    assert.equal(run.code, 0, run.stderr);
    const threadId = JSON.parse(run.stdout.trim().split("\n").at(-1)!).threadId as string;
    const show = await runCli(["threads", "show", threadId, "--format", "json"], { home });
    assert.equal(show.code, 0, show.stderr);
    type Call = { toolCallId: string; parentToolCallId?: string; status: string; title: string; content: unknown[] };
    const calls = new Map<string, Call>();
    for (const r of (JSON.parse(show.stdout) as { records: { kind: string; toolCall?: Call }[] }).records)
      if (r.kind === "tool_call" && r.toolCall) calls.set(r.toolCall.toolCallId, r.toolCall);
    const grand = [...calls.keys()].find((id) => id.startsWith("subagent:") && id !== "subagent:v2-child");
    assert.ok(grand, [...calls.keys()].join(", "));
    assert.match(grand, /:subagent:thread-8$/);
    assert.deepEqual(
      [...calls.values()].map((c) => [c.toolCallId, c.parentToolCallId ?? null, c.status]).sort(),
      [
        ["call_spawn", null, "completed"],
        ["child-ls", "call_spawn", "completed"],
        ["gc-read", grand, "completed"],
        [grand, "call_spawn", "in_progress"],
        ["subagent:v2-child", null, "completed"],
        ["v2-echo", "subagent:v2-child", "pending"],
      ].sort(),
      "nothing of the children is recorded top-level; the stray session's call is not this thread's",
    );
    assert.equal(calls.get(grand)?.title, "Subagent: helper");
    assert.equal(calls.get("subagent:v2-child")?.title, "Subagent: Counter");
    assert.deepEqual(calls.get("call_spawn")?.content, [
      { type: "content", content: { type: "text", text: "There are 3 files." } },
    ]);
    const md = await runCli(["threads", "export", threadId, "--format", "md"], { home });
    assert.equal(md.code, 0, md.stderr);
    const spawn = md.stdout.indexOf("spawnAgent");
    const inside = md.stdout.slice(spawn, md.stdout.indexOf("</details>", spawn));
    assert.match(inside, /Subagent work \(2 tool calls\):\n\n {2}- Tool: <b>ls<\/b>/, md.stdout);
    assert.match(inside, /Subagent: helper[^]*Subagent work \(1 tool call\):\n\n {6}- Tool: <b>Read a<\/b>/);
  }));
