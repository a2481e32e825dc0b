// Issue 23 on the host side: a turn with subagent work (the stdio fake agent stamps claude-agent-acp's
// `_meta.claudeCode.parentToolUseId`) is stored with each nested call's `parentToolCallId`; "Log out of agent"
// sends ACP `logout` to an agent that offers it and reports its login state, and refuses one that does not.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { api, repoRoot, spawnIdleFake, useFakeAgent, waitFor } from "./helpers";

describe("subagents and logout (issue 23)", () => {
  before(useFakeAgent);

  it("a subagent's tool calls are stored with their parent's id", async () => {
    const { hub } = await api();
    const s = await spawnIdleFake();
    const done = new Promise<void>((r) => s.onTurnDone(() => r()));
    void s.prompt("subagent");
    await done;
    const parents = await waitFor("the stored tool calls", () => {
      const calls = hub.threads.read(s.threadId).records.flatMap((r) => (r.kind === "tool_call" ? [r.toolCall] : []));
      return calls.length === 5 ? calls : undefined;
    });
    assert.deepEqual(Object.fromEntries(parents.map((c) => [c.toolCallId, c.parentToolCallId ?? null])), {
      "sub-read-1": "task-1",
      "sub-grep-1": "task-1",
      "orphan-1": "no-such-parent",
      "odd-1": null,
      "task-1": null,
    });
    await s.close();
  });

  it("Log out of agent logs an agent that offers it out and refuses one that does not", async () => {
    const dir = mkdtempSync(join(tmpdir(), "acp-host-logout-"));
    const fake = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    const agents = cfg.get<Record<string, unknown>>("agents") ?? {};
    const env = { ELECTRON_RUN_AS_NODE: "1", FAKE_AGENT_LOGOUT: "1", FAKE_AGENT_PIDFILE: join(dir, "a.pid") };
    await cfg.update(
      "agents",
      { ...agents, "fake-logout": { command: process.execPath, args: [fake], env, displayName: "Fake logout" } },
      vscode.ConfigurationTarget.Global,
    );
    try {
      const res = await vscode.commands.executeCommand<{ authStatus?: { kind: string } }>(
        "acpThreads.logoutAgent",
        "fake-logout",
      );
      assert.equal(res?.authStatus?.kind, "none");
      assert.equal(readFileSync(join(dir, "a.pid.logout"), "utf8"), "logged out");
      // the stdio fake without FAKE_AGENT_LOGOUT does not advertise logout: an error, nothing sent
      const refused = await vscode.commands.executeCommand("acpThreads.logoutAgent", "fake");
      assert.equal(refused, undefined);
    } finally {
      await cfg.update("agents", agents, vscode.ConfigurationTarget.Global);
    }
  });
});
