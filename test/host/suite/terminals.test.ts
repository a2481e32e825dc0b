import assert from "node:assert/strict";
import * as vscode from "vscode";
import { readHomeSettings } from "../../../src/core/store/home-settings";
import { startExec } from "../../../src/vscode/exec-terminal";
import { parentPid } from "../../fixtures/agent-env/procs";
import { api, terminalScreen, waitFor, workspaceRoot } from "./helpers";

describe("exec runs in a Pseudoterminal", () => {
  it("appears in window.terminals and in the sessions view, and typing reaches the process", async () => {
    const { hub } = await api();
    const started = await startExec(
      hub,
      { id: "custom", label: "custom" },
      'printf "ready\\n"; read line; echo "got:$line"; sleep 2',
      workspaceRoot(),
    );
    assert.ok(
      "run" in started,
      "with acpThreads.host.runSessions window (the harness pins it) the run is this window's",
    );
    const { run, terminal } = started;
    assert.ok(vscode.window.terminals.includes(terminal), "terminal is listed");
    // #24: the run is forked by the spawner, never by the extension host's thread (Linux: the parent from /proc)
    const parent = parentPid(run.info.pid!);
    if (parent !== undefined) assert.notEqual(parent, process.pid, "the exec run's parent is the spawner");
    const nodes = await hub.tree.getChildren();
    const liveGroup = nodes.find((n) => n.type === "group" && n.id === "live");
    assert.ok(
      liveGroup &&
        liveGroup.type === "group" &&
        liveGroup.children.some((c) => c.type === "exec" && c.runId === run.id),
    );
    await waitFor("the ready line", async () => (await terminalScreen(terminal)).includes("ready"));
    terminal.sendText("typed-into-terminal");
    const screen = await waitFor("the echo of typed input", async () => {
      const s = await terminalScreen(terminal);
      return s.includes("got:typed-into-terminal") ? s : undefined;
    });
    assert.match(screen, /got:typed-into-terminal/);
    const info = await run.exited;
    assert.equal(info.exitCode, 0);
    await waitFor("exit status in the view", () => hub.live.exec(run.id)?.status === "exited");
    assert.match(await terminalScreen(terminal), /process exited with code 0/, "output stays visible after exit");
    const threadId = run.state.threadId;
    assert.ok(threadId && hub.threads.exists(threadId), "the run is recorded as an exec thread");
    assert.equal(hub.threads.read(threadId).metadata.mode, "exec");
    terminal.dispose();
  });

  it("shares acpThreads.exec.ttlMinutes with the CLI through the data home", async () => {
    const { hub } = await api();
    const cfg = () => vscode.workspace.getConfiguration("acpThreads");
    await hub.shared.written; // written at activation, off the host's thread
    assert.equal(readHomeSettings(hub.home).execTtlMinutes, 60, "written at activation");
    await cfg().update("exec.ttlMinutes", 90, vscode.ConfigurationTarget.Global);
    try {
      await waitFor("the new value in the home", () => readHomeSettings(hub.home).execTtlMinutes === 90);
      assert.equal(hub.exec.ttlMs, 90 * 60_000, "the editor's own registry follows it");
    } finally {
      await cfg().update("exec.ttlMinutes", undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor("the default back in the home", () => readHomeSettings(hub.home).execTtlMinutes === 60);
  });
});
