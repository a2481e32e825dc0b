// Ctrl-C and --timeout in the middle of a real agent's long command: the CLI cancels the turn, exits with its
// documented code, and leaves no process behind (agent, npm launcher, or the command the agent started).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { AGENT_TIMEOUT_MS, jsonLines, processesGone, processesOf, runArgs, setUp, skipUnlessInstalled, startCli } from "./harness";

// Longer than any test: the command must still be running when the turn is interrupted.
const LONG = "run `sleep 90`";
const isRunningCommand = (l: Record<string, unknown>) => l.type === "tool_call" && (l.toolCall as { kind?: string }).kind === "execute";

test("Ctrl-C during codex-acp's long command exits 130 and leaves no agent process behind", { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled }, async () => {
  const t = await setUp("codex-acp");
  try {
    const cli = startCli(t, runArgs(t, "approve-all", LONG));
    await cli.waitForLine(isRunningCommand);
    // The check below is only meaningful if it sees this run's processes: the CLI, the agent, the command.
    const alive = processesOf(t).map((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " "));
    assert.ok(alive.some((c) => c.includes("cli.js")) && alive.some((c) => c.includes("codex-acp")), alive.join("\n"));
    cli.child.kill("SIGINT");
    const r = await cli.result;
    assert.equal(r.code, 130, `stderr: ${r.stderr.slice(-1500)}`);
    assert.equal(jsonLines(r.stdout).at(-1)?.type, "summary");
    assert.deepEqual(await processesGone(t), [], "processes of this run still alive");
  } finally {
    await t.cleanup();
  }
});

test("--timeout during claude-agent-acp's long command exits 3 and leaves no agent process behind", { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled }, async () => {
  const t = await setUp("claude-agent-acp");
  try {
    // 15 s: claude-agent-acp needs a few seconds to start its command even on a busy machine.
    const cli = startCli(t, runArgs(t, "approve-all", LONG, ["--timeout", "15"]));
    const r = await cli.result;
    assert.equal(r.code, 3, `stderr: ${r.stderr.slice(-1500)}`);
    assert.ok(jsonLines(r.stdout).some(isRunningCommand), "the command had started before the timeout");
    assert.deepEqual(await processesGone(t), [], "processes of this run still alive");
  } finally {
    await t.cleanup();
  }
});

// Known gap (todo until the engine guards its agents): codex-acp and claude-agent-acp do not exit when their
// stdin closes, so when the host dies without closing them (SIGKILL, crash) they and the command they run
// outlive it as orphans. gemini, opencode and claude-code-acp exit on EOF. Seen as leftover codex-acp
// processes after killed code-server runs.
for (const id of ["codex-acp", "claude-agent-acp"] as const) {
  test(`${id} does not outlive a CLI killed with SIGKILL`, { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled, todo: "agents that ignore stdin EOF need a parent-death guard" }, async () => {
    const t = await setUp(id);
    try {
      const cli = startCli(t, runArgs(t, "approve-all", LONG));
      await cli.waitForLine(isRunningCommand);
      cli.child.kill("SIGKILL");
      await cli.result;
      assert.deepEqual(await processesGone(t, 5_000), [], "processes of this run still alive");
    } finally {
      await t.cleanup();
    }
  });
}
