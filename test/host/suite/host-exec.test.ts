// Issue 35 item 1 in the real extension host: with acpThreads.host.runSessions host, an exec run the window starts
// (startExec, as the composer's exec mode does) runs in the thread host, not in this window: its terminal shows the
// host's output and what the user types reaches it; its row is under Live. A reloaded window (a second client of
// the host with this window's folders, its own Live list: what a window is after a reload) gets the running run's
// Live row and terminal again, with the output so far and then the live output. Closing the terminal stops the run
// in the host.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { startExec } from "../../../src/vscode/exec-terminal";
import { wireHostedExecs } from "../../../src/vscode/host/hosted-exec";
import type { HostedThreads } from "../../../src/vscode/host/hosted-threads";
import { LiveSessions } from "../../../src/vscode/live-sessions";
import { reloadedWindow } from "./reloaded-window";
import { api, terminalScreen, waitFor, workspaceRoot } from "./helpers";

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
      wired = wireHostedExecs(reloaded, live);
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
      await cfg.update("host.runSessions", undefined, vscode.ConfigurationTarget.Global);
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
      await cfg.update("host.runSessions", undefined, vscode.ConfigurationTarget.Global);
      const c = await hub.hosted.link.connection();
      await c?.request({ t: "stop", force: true }).catch(() => undefined);
    }
  });
});
