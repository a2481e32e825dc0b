// #35, host parity §2 item 11-12 in the real extension host: a hosted thread's panel chrome as a window session's.
// The header's timer counts from the running turn's prompt record (a panel opened late, as after a reload, shows
// the time the turn has run, not 0:00); the ops strip is posted; a run the host ended with an error shows `failed`
// with its error; the status bar's usage figure names the host's thread; a turn of a thread this window started in
// the host that ends while its panel is hidden is told in a notification with Open; a question of a hosted thread
// whose panel is hidden is a notification naming the agent.
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { api, useFakeAgent, waitFor, workspaceRoot } from "./helpers";
import { cli, detach, sendNewInHost } from "./host-cli";

async function inPanel(id: string) {
  const { hub } = await api();
  await waitFor("the thread in the host", () => hub.hosted.rows().find((r) => r.threadId === id));
  await vscode.commands.executeCommand("acpThreads.openThread", id);
  return await waitFor("the panel's view", () => hub.hosted.get(id));
}

describe("a hosted thread's panel chrome", () => {
  afterEach(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  it("the timer counts from the turn's prompt record; the ops strip is posted; a failed run shows its error", async () => {
    const { hub } = await api();
    const id = await detach(hub.home, ["sleep 60000", "die"]);
    try {
      const prompted = await waitFor("the prompt's record", () =>
        hub.threads.read(id).records.find((r) => r.kind === "user_message"),
      );
      const view = await inPanel(id);
      await waitFor("the turn running", () => view.status === "working");
      const panel = hub.panels.panelOf(id)!;
      const since = await waitFor("the header's timer", () => panel.shown.since);
      assert.equal(since, Date.parse(prompted.ts), "from the record, not from when the panel opened");
      await waitFor("the ops strip (its thread looked up off the host's thread first)", () => panel.shown.ops > 0);
      // the first turn cancelled, the next prompt's agent dies: the host's run ends with an error
      await view.cancel();
      await waitFor("the failed run", () => panel.shown.status === "failed", 30_000);
      assert.ok(panel.shown.detail, "the run's error as the status's detail");
      assert.equal(panel.shown.since, undefined, "no timer once it ended");
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });

  it("the status bar's usage names the host's thread while its run lasts", async () => {
    const { hub } = await api();
    const id = await detach(hub.home, ["cost 1 2 0.25", "sleep 60000"]);
    try {
      const tip = () => {
        const t = hub.usageStatus.item.tooltip;
        return t instanceof vscode.MarkdownString ? t.value : String(t ?? "");
      };
      await waitFor("the host's thread in the status bar", () => tip().includes("$0.25"), 30_000).catch((e: Error) => {
        throw new Error(`${e.message}; tooltip: ${tip()}; text: ${hub.usageStatus.item.text}`);
      });
      assert.match(hub.usageStatus.item.text, /\$0\.25/);
      await cli(hub.home, ["host", "stop", "--force"]);
      await waitFor("let go once its run ended", () => !tip().includes(id) && !tip().includes("$0.25"), 30_000);
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });

  it("a turn of a thread this window started in the host, ending while its panel is hidden, is told with Open", async () => {
    await useFakeAgent();
    const { hub } = await api();
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    try {
      const id = await sendNewInHost("fake", [{ type: "text", text: "sleep 60000" }]);
      await waitFor("the turn running", () =>
        hub.threads.read(id).records.some((r) => r.kind === "agent_message" && r.text.includes("sleeping")),
      );
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      await waitFor("the panel hidden", () => !hub.panels.isVisible(id));
      const before = hub.broker.notifier.shown;
      await hub.hosted.cancel(id);
      const told = await waitFor("the notification", () =>
        hub.broker.notifier.since(before).find((n) => /finished “sleep 60000”/.test(n.message)),
      );
      assert.deepEqual(
        [told.severity, told.message, told.items],
        ["info", "Fake agent finished “sleep 60000”", ["Open"]],
      );
      // another client's thread (not started here) is not this window's to tell
      const other = await detach(hub.home, ["hello"]);
      await waitFor("its turn ended", () => hub.threads.read(other).records.some((r) => r.kind === "turn_end"));
      assert.ok(!hub.broker.notifier.since(before).some((n) => n.message.includes("“hello”")));
    } finally {
      await cfg.update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });

  it("a hosted question's notification names the agent, not the host", async () => {
    const { hub } = await api();
    const out = join(workspaceRoot(), "asked-in-host.txt");
    const cover = join(workspaceRoot(), "over-the-panel.txt");
    writeFileSync(cover, "an editor over the panel\n");
    const id = await detach(hub.home, ["--permission", "ask", "sleep 60000", `write ${out} x`]);
    try {
      const view = await inPanel(id);
      await waitFor("the turn running", () => view.status === "working");
      // another editor over the panel: hidden, still following the host
      await vscode.window.showTextDocument(vscode.Uri.file(cover), { preview: false });
      await waitFor("the panel hidden", () => !hub.panels.isVisible(id));
      const before = hub.broker.notifier.shown;
      await view.cancel(); // the next prompt's write is asked
      const toast = await waitFor("the question's notification", () =>
        hub.broker.notifier.since(before).find((n) => / asks: /.test(n.message)),
      );
      const agent = hub.threads.read(id).metadata.agent.name;
      assert.ok(toast.message.startsWith(`${agent} asks: `), toast.message);
      assert.doesNotMatch(toast.message, /thread host/);
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
      rmSync(cover, { force: true });
      rmSync(out, { force: true });
    }
  });
});
