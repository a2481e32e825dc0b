// #35 in the real extension host, threads the thread host runs: Fork from here on a thread the host runs mid-turn
// lists the fork in the source at once (the host writes it: its run holds the source's file); an idle hosted thread
// that no panel follows turns working on its Sessions row as soon as a terminal prompts it (the host's turn_started
// event); a turn of a thread this window started in the host is still told after a reload (the window's memory of
// the threads it started, read back from the workspace state as a reopened window reads it); Show protocol log takes
// a hosted row and a focused hosted panel.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { StartedHere } from "../../../src/vscode/host/started-here";
import { api, useFakeAgent, waitFor } from "./helpers";
import { cli, detach, hostRunSessions, sendNewInHost } from "./host-cli";

describe("links, turn starts and notifications of threads the thread host runs (#35)", () => {
  afterEach(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  it("Fork from here on a thread the host runs mid-turn: the source lists the fork at once", async () => {
    const { hub } = await api();
    const id = await detach(hub.home, ["sleep 60000"]);
    let fork: string | undefined;
    try {
      await waitFor("the thread in the host", () => hub.hosted.rows().some((r) => r.threadId === id));
      await waitFor("the turn running", () =>
        hub.threads.read(id).records.some((r) => r.kind === "agent_message" && r.text.includes("sleeping")),
      );
      fork = await vscode.commands.executeCommand<string>("acpThreads.forkThread", id, 1, "sleep 60000");
      assert.ok(fork && fork !== id);
      assert.deepEqual(hub.threads.read(id).metadata.forks, [fork], "listed once the command returned");
      assert.ok(
        hub.hosted.rows().some((r) => r.threadId === id),
        "the host still runs the source",
      );
    } finally {
      if (fork) await hub.live.get(fork)?.close();
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });

  it("Hand off from a hosted row mid-turn: the thread the host holds lists the new thread at once", async () => {
    await useFakeAgent();
    const { hub } = await api();
    const id = await detach(hub.home, ["sleep 60000"]);
    let to: unknown;
    try {
      await waitFor("the thread in the host", () => hub.hosted.rows().some((r) => r.threadId === id));
      to = await vscode.commands.executeCommand<unknown>(
        "acpThreads.handoff",
        { type: "hosted", threadId: id },
        { agentId: "fake", brief: "the handoff brief" },
      );
      const toId = typeof to === "string" ? to : (to as { threadId?: string } | undefined)?.threadId;
      assert.ok(toId && toId !== id, "the new thread");
      assert.deepEqual(hub.threads.read(id).metadata.handedOffTo, [toId], "listed once the command returned");
      assert.ok(
        hub.hosted.rows().some((r) => r.threadId === id),
        "the host still runs the source",
      );
    } finally {
      if (to && typeof to === "object") await (to as { close(): Promise<void> }).close();
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });

  describe("with runSessions host", () => {
    hostRunSessions();

    it("an idle hosted thread no panel follows turns working on its row when a terminal prompts it", async () => {
      const { hub } = await api();
      const id = await sendNewInHost("fake", [{ type: "text", text: "hello" }]);
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      const row = () => hub.hosted.rows().find((r) => r.threadId === id);
      await waitFor("idle, followed by no panel", () => row()?.status === "idle" && !hub.hosted.get(id), 30_000);
      const sent = await cli(hub.home, ["run", "--thread", id, "sleep 60000"]);
      assert.equal(sent.code, 0, sent.stderr);
      // before: the row read the host's status on events only, and stayed idle until this turn's end (60 s)
      await waitFor("the row working", () => row()?.status === "working", 15_000);
    });

    it("Show protocol log from a hosted thread's row or its focused panel shows that thread's traffic", async () => {
      const { hub } = await api();
      const id = await sendNewInHost("fake", [{ type: "text", text: "hello" }]);
      await waitFor("its panel focused", () => hub.panels.lastActive() === id);
      const shows = async (arg?: unknown) => {
        await vscode.commands.executeCommand("acpThreads.showProtocolLog", ...(arg ? [arg] : []));
        const d = vscode.window.activeTextEditor?.document;
        return d?.uri.path.endsWith(`${id}.ndjson`) && d.getText().includes('"method":"session/prompt"');
      };
      // before: neither was this thread's (a hosted row and a hosted panel were not looked at)
      await waitFor("the focused panel's traffic", () => shows(), 15_000);
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      await waitFor("the row's traffic", () => shows({ type: "hosted", threadId: id }), 15_000);
    });

    it("a turn of a thread this window started in the host is told after a reload", async () => {
      const { hub } = await api();
      const hosted = hub.hosted as unknown as { startedHere: StartedHere };
      const before = hosted.startedHere;
      try {
        const id = await sendNewInHost("fake", [{ type: "text", text: "sleep 60000" }]);
        await waitFor("the turn running", () =>
          hub.threads.read(id).records.some((r) => r.kind === "agent_message" && r.text.includes("sleeping")),
        );
        // the reopened window's memory: only what the workspace state kept
        hosted.startedHere = new StartedHere(hub.context.workspaceState);
        assert.ok(hosted.startedHere.has(id), "kept in the workspace state");
        await vscode.commands.executeCommand("workbench.action.closeAllEditors");
        await waitFor("the panel hidden", () => !hub.panels.isVisible(id));
        const shown = hub.broker.notifier.shown;
        await hub.hosted.cancel(id);
        const told = await waitFor("the notification", () =>
          hub.broker.notifier.since(shown).find((n) => /finished “sleep 60000”/.test(n.message)),
        );
        assert.deepEqual([told.severity, told.items], ["info", ["Open"]]);
      } finally {
        hosted.startedHere = before;
      }
    });
  });
});
