// Issue 35 in the real extension host: a hosted exec run whose host dies while the window shows it. The host is
// SIGKILLed (its parent guard stops the run: no orphan), so its end never reaches the window. The window, on
// losing the connection, looks for the host, finds none answering, and ends the run: its Live row says
// `interrupted`, its terminal says why, and closing the terminal does not try to stop a run that is gone. Before
// (stop 40's review), the row stayed "running" and closing it logged a failed stop. A connection dropped while the
// host runs on: the run it still lists stays running in the window, typed into as before. And the window's own
// account (HostedTerminals.reconcile): a terminal the host's status does not list ends, one it lists or one shown
// after the status was asked for stays.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { connectHost, type HostConnection } from "../../../src/core/host/client";
import type { ServeOffer } from "../../../src/core/host/protocol-serve";
import { startExec } from "../../../src/vscode/exec-terminal";
import type { HostLink } from "../../../src/vscode/host/host-link";
import { HostedTerminals } from "../../../src/vscode/host/serve-terminals";
import { api, terminalScreen, waitFor, workspaceRoot } from "./helpers";

/** What another window of this workspace serves: its terminals. */
const offer = (): ServeOffer => ({ fs: false, terminals: true, roots: [workspaceRoot()] });

/**
 * Stops the thread host and waits until it has left (it lets go of its clients, then of its lock): the next test's
 * run starts a new host, which the stopping one would refuse.
 */
async function stopHost(link: HostLink): Promise<void> {
  const c = await link.connection();
  await c?.request({ t: "stop", force: true }).catch(() => undefined);
  if (c) await waitFor("the thread host left", () => c.closed);
}

/** Whether a process group has a process left. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

describe("a hosted exec run whose thread host dies", () => {
  it("ends in the window as interrupted, its process gone, and closing it stops nothing", async () => {
    const { hub } = await api();
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    const hosted = hub.hosted;
    const stopExec = hosted.stopExec.bind(hosted);
    const stops: string[] = [];
    hosted.stopExec = (runId) => (stops.push(runId), stopExec(runId));
    try {
      const cmd = "echo host-dies-under-me; sleep 600";
      const started = await startExec(hub, { id: "custom", label: "custom" }, cmd, workspaceRoot());
      assert.ok("hosted" in started, "the run is the host's");
      const { runId, terminal } = started;
      await waitFor("it runs", async () => (await terminalScreen(terminal)).includes("host-dies-under-me"));
      const c = await hosted.link.connection();
      assert.ok(c);
      const r = await c.request({ t: "status" });
      assert.ok(r.t === "status");
      assert.deepEqual(
        r.status.execs?.map((e) => e.runId),
        [runId],
      );
      assert.ok(r.status.terminals?.includes(runId), "the status lists its terminal");
      const pgid = hub.exec.info(runId)?.pgid;
      assert.ok(pgid && groupAlive(pgid), "its process group runs");

      process.kill(r.status.pid, "SIGKILL");
      const row = await waitFor("its Live row ended", () => {
        const e = hub.live.exec(runId);
        return e?.status !== "running" ? e : undefined;
      });
      assert.equal(row.status, "interrupted");
      assert.ok(row.endedAt, "it has an end");
      await waitFor("its terminal says why", async () =>
        (await terminalScreen(terminal)).includes("interrupted — the thread host ended"),
      );
      await waitFor("no orphan: the run's processes are gone with the host", () => !groupAlive(pgid));

      const closed = new Promise<void>((resolve) => {
        const sub = vscode.window.onDidCloseTerminal((t) => t === terminal && (sub.dispose(), resolve()));
      });
      terminal.dispose();
      await closed;
      assert.deepEqual(stops, [], "closing it did not try to stop the gone run");
    } finally {
      hosted.stopExec = stopExec;
      await cfg.update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
      await stopHost(hosted.link);
    }
  });

  it("a dropped connection to a host that runs on: the run it lists stays running, typed into as before", async () => {
    const { hub } = await api();
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    try {
      const cmd = 'echo dropped-but-running; read line; echo "got:$line"; sleep 600';
      const started = await startExec(hub, { id: "custom", label: "custom" }, cmd, workspaceRoot());
      assert.ok("hosted" in started, "the run is the host's");
      const { runId, terminal } = started;
      await waitFor("it runs", async () => (await terminalScreen(terminal)).includes("dropped-but-running"));
      const c = await hub.hosted.link.connection();
      assert.ok(c);
      c.sock.destroy(); // as the host drops a slow client
      await waitFor("the connection closed", () => c.closed);
      await hub.hosted.terminalsChecked();
      assert.equal(hub.live.exec(runId)?.status, "running", "the host still lists it");
      terminal.sendText("after-the-drop");
      await waitFor("typed into it again", async () => (await terminalScreen(terminal)).includes("got:after-the-drop"));
      terminal.dispose();
      await waitFor("stopped in the host", () => hub.exec.info(runId)?.status === "killed");
    } finally {
      await cfg.update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
      await stopHost(hub.hosted.link);
    }
  });

  it("a run the same host ended while the window was away shows its recorded end, not `lost`", async () => {
    const { hub } = await api();
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    const link = hub.hosted.link;
    const check = link.check.bind(link);
    let release = () => {};
    const away = new Promise<void>((resolve) => (release = resolve));
    let other: HostConnection | undefined;
    try {
      const cmd = "echo ended-while-away; read code; exit $code";
      const started = await startExec(hub, { id: "custom", label: "custom" }, cmd, workspaceRoot());
      assert.ok("hosted" in started, "the run is the host's");
      const { runId, terminal } = started;
      await waitFor("it runs", async () => (await terminalScreen(terminal)).includes("ended-while-away"));
      // another client shown the run (another window): it ends the run while this window is not connected
      other = await connectHost({ home: hub.home, client: "another window", watching: true, serves: offer() });
      assert.ok(other);
      const shown = new Promise<void>((resolve) =>
        other!.onPush((m) => m.t === "terminal" && m.term === runId && resolve()),
      );
      await shown;
      link.check = () => away.then(check); // the window looks for the host only once the run has ended
      const c = await link.connection();
      assert.ok(c);
      c.sock.destroy(); // as the host drops a slow client
      await waitFor("the connection closed", () => c.closed);
      await other.request({ t: "terminal_input", term: runId, data: "7\n" });
      await waitFor("the host recorded its end", () => hub.exec.info(runId)?.status === "exited");
      release();
      await hub.hosted.terminalsChecked();
      const row = hub.live.exec(runId);
      assert.equal(row?.status, "failed", "the registry's end (exit 7), not lost");
      assert.equal(row?.exitCode, 7);
      await waitFor("its terminal says why", async () =>
        (await terminalScreen(terminal)).includes("ended while this window was not connected to the thread host"),
      );
    } finally {
      release();
      link.check = check;
      other?.close();
      await cfg.update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
      await stopHost(link);
    }
  });

  it("the window ends the terminals the host's status does not list, not one shown after it was asked for", async () => {
    const terms = new HostedTerminals(() => Promise.resolve());
    const show = (term: string) =>
      terms.push({ t: "terminal", term, sessionId: "s", label: "Gone agent", commandLine: `cmd-${term}`, cwd: "/" });
    const named = (term: string) => vscode.window.terminals.find((t) => t.name === `Gone agent: cmd-${term}`);
    try {
      show("gone");
      show("kept");
      const asked = terms.mark();
      show("newer"); // its `terminal` push came after the status was asked for
      terms.reconcile(new Set(["kept"]), asked, "ended while not connected", "lost");
      for (const term of ["gone", "kept", "newer"])
        terms.push({ t: "terminal_output", term, data: `still-${term}\r\n` });
      // the screen read is the active terminal's: read until it is this one's (its banner names it)
      const screen = (term: string) =>
        waitFor(`the ${term} terminal's screen`, async () => {
          const t = named(term);
          const s = t && (await terminalScreen(t));
          return s?.includes(`$ cmd-${term} `) ? s : undefined;
        });
      const gone = await screen("gone");
      assert.match(gone, /\[ended while not connected\]/);
      assert.doesNotMatch(gone, /still-gone/, "its output is no longer taken");
      for (const term of ["kept", "newer"]) {
        const s = await screen(term);
        assert.match(s, new RegExp(`still-${term}`), `${term} is still shown`);
        assert.doesNotMatch(s, /ended while not connected/);
      }
      assert.ok(terms.showing, "two still shown");
    } finally {
      terms.dispose();
    }
  });
});
