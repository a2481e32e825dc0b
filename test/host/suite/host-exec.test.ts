// Issue 35 item 1 in the real extension host: with acpThreads.host.runSessions host, an exec run the window starts
// (startExec, as the composer's exec mode does) runs in the thread host, not in this window: its terminal shows the
// host's output and what the user types reaches it; its row is under Live. A reloaded window (a second client of
// the host with this window's folders, its own Live list: what a window is after a reload) gets the running run's
// Live row and terminal again, with the output so far and then the live output. Closing the terminal stops the run
// in the host. A run with a timeout says `timeout` on its row. A run in a new worktree (made by the window beside a
// repository of its folders) runs in the host too, its terminal and row in the window.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { startExec } from "../../../src/vscode/exec-terminal";
import { wireHostedExecs } from "../../../src/vscode/host/hosted-exec";
import type { HostedThreads } from "../../../src/vscode/host/hosted-threads";
import { LiveSessions } from "../../../src/vscode/live-sessions";
import { reloadedWindow } from "./reloaded-window";
import { api, terminalScreen, waitFor, workspaceRoot } from "./helpers";
import { seededRepo } from "./worktree-helpers";

const SCRIPT = 'printf "before-the-reload\\n"; read line; echo "got:$line"; read more; echo "then:$more"';

describe("exec runs in the thread host", () => {
  it("runs in the host, typed into, and shown again with its output to a reloaded window", async () => {
    const { hub } = await api();
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    const live = new LiveSessions();
    let reloaded: HostedThreads | undefined;
    let wired: vscode.Disposable | undefined;
    try {
      const started = await startExec(hub, { id: "custom", label: "custom" }, SCRIPT, workspaceRoot());
      assert.ok("hosted" in started, "the run is the host's");
      const { runId, terminal } = started;
      assert.equal(hub.exec.get(runId), undefined, "this window's registry does not own it");
      const info = hub.exec.info(runId);
      assert.equal(info?.status, "running", "the data home's registry lists it");
      assert.notEqual(info?.ownerPid, process.pid, "owned by the host's process");
      assert.equal(hub.live.exec(runId)?.terminal, terminal, "its Live row");
      await waitFor("its output", async () => (await terminalScreen(terminal)).includes("before-the-reload"));
      terminal.sendText("typed-here");
      await waitFor("the typing reached it", async () => (await terminalScreen(terminal)).includes("got:typed-here"));
      // a reloaded window: a new client of the host with this window's folders, and its own Live rows
      reloaded = reloadedWindow(hub);
      wired = wireHostedExecs(reloaded, live, (id) => hub.exec.info(id));
      await reloaded.link.check();
      const row = await waitFor("the run's Live row after the reload", () => live.exec(runId));
      assert.equal(row.status, "running");
      assert.equal(row.threadId, info?.threadId);
      const again = row.terminal;
      assert.notEqual(again, terminal);
      await waitFor("the output so far", async () => {
        const s = await terminalScreen(again);
        return s.includes("before-the-reload") && s.includes("got:typed-here");
      });
      again.sendText("after-the-reload");
      await waitFor("the live output after the reload", async () =>
        (await terminalScreen(again)).includes("then:after-the-reload"),
      );
      await waitFor("exited in both windows' rows", () =>
        [hub.live.exec(runId)?.status, live.exec(runId)?.status].every((s) => s === "exited"),
      );
      await waitFor("recorded as exited", () => hub.exec.info(runId)?.status === "exited");
    } finally {
      wired?.dispose();
      reloaded?.dispose();
      for (const t of vscode.window.terminals.filter((x) => x.name.includes("before-the-reload"))) t.dispose();
      live.dispose();
      await cfg.update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
    }
  });

  it("closing the run's terminal stops it in the host", async () => {
    const { hub } = await api();
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    try {
      const started = await startExec(hub, { id: "custom", label: "custom" }, "echo up; sleep 600", workspaceRoot());
      assert.ok("hosted" in started);
      await waitFor("it runs", async () => (await terminalScreen(started.terminal)).includes("up"));
      started.terminal.dispose();
      await waitFor("stopped in the host", () => hub.exec.info(started.runId)?.status === "killed");
    } finally {
      await cfg.update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
      const c = await hub.hosted.link.connection();
      await c?.request({ t: "stop", force: true }).catch(() => undefined);
      if (c) await waitFor("the host gone (the next test starts its own)", () => c.closed);
    }
  });

  it("a hosted run's timeout shows as timeout on its Live row", async () => {
    const { hub } = await api();
    const c = await hub.hosted.link.connection(true);
    assert.ok(c);
    // a run with a timeout, as `acp-threads exec --detach --timeout` sends it; this window shows it
    const cwd = workspaceRoot();
    const r = await c.request({
      t: "exec_start",
      exec: { command: "/bin/sh", args: ["-c", "sleep 600"], cwd, timeoutMs: 300 },
    });
    assert.ok(r.t === "exec_started");
    const row = await waitFor("its Live row", () => hub.live.exec(r.exec.runId));
    await waitFor("the row says timeout", () => row.status === "timeout");
    assert.equal(hub.exec.info(r.exec.runId)?.status, "timeout", "as the registry says");
    row.terminal?.dispose();
  });
});

describe("exec runs in a new worktree in the thread host", () => {
  const seed = seededRepo("acp-host-exec-wt-", { "a.txt": "a\n" }, { under: workspaceRoot });

  it("runs in the host, in the worktree the window made, its terminal and Live row in this window", async () => {
    const { hub } = await api();
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    try {
      const script = "pwd -P; read line; echo got:$line";
      const started = await startExec(hub, { id: "custom", label: "custom" }, script, seed.repo, undefined, true);
      assert.ok("hosted" in started, "the run is the host's");
      const { runId, terminal, hosted } = started;
      const wt = hosted.worktree;
      assert.ok(wt && wt.repo === seed.repo && wt.path !== seed.repo, "in a new worktree of the repository");
      assert.equal(hub.exec.get(runId), undefined, "this window's registry does not own it");
      assert.equal(hub.exec.info(runId)?.worktree?.path, wt.path, "the registry records its worktree");
      assert.equal(hub.live.exec(runId)?.terminal, terminal, "its Live row");
      await waitFor("it runs in the worktree", async () => (await terminalScreen(terminal)).includes(wt.path));
      terminal.sendText("in-the-worktree");
      await waitFor("exited", () => hub.live.exec(runId)?.status === "exited");
      assert.match(await terminalScreen(terminal), /got:in-the-worktree/);
      terminal.dispose();
    } finally {
      await cfg.update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
    }
  });
});
