// A turn with subagent work from the stdio fake agent (claude-agent-acp's `_meta.claudeCode.parentToolUseId`):
// `threads show --format json` has the `parentToolCallId` of each nested call, bad parents are kept top-level,
// and `threads export --format md` writes the subagent's calls inside its parent's block.
import assert from "node:assert/strict";
import { test } from "node:test";
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
