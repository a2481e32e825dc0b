// Runs in the second pass of run.mjs: Workspace Trust enabled and the folder not trusted.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { api, workspaceRoot } from "./helpers";

describe("an untrusted workspace", () => {
  it("is really untrusted in this pass", () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  it("refuses to spawn an agent with a clear message and starts nothing", async () => {
    const { hub } = await api();
    const before = hub.live.all().length;
    assert.throws(
      () =>
        hub.spawnSession({
          agent: { id: "x", displayName: "X", command: process.execPath, args: [] },
          task: "hi",
          mode: "run",
          cwd: workspaceRoot(),
        }),
      /untrusted workspace/,
    );
    assert.equal(hub.live.all().length, before);
  });

  it("the spawn command itself refuses (an error message, no session)", async () => {
    const { hub } = await api();
    const r = await vscode.commands.executeCommand("acpThreads.spawn", {
      agentId: "anything",
      task: "hi",
      cwd: workspaceRoot(),
    });
    assert.equal(r, undefined);
    assert.equal(hub.live.all().length, 0);
  });

  it("refuses exec runs too", async () => {
    const { hub } = await api();
    const { startExec } = await import("../../../src/vscode/exec-terminal");
    await assert.rejects(
      startExec(hub, { id: "custom", label: "custom" }, "echo hi", workspaceRoot()),
      /untrusted workspace/,
    );
    assert.equal(hub.live.execs().length, 0);
  });
});
