// Issue 35 in the real extension host: a thread the thread host runs has the watchdog and the elicitations a
// window session has. A detached turn that goes silent shows its stall on its Sessions row (warning, Retry and
// Cancel: `hosted-alert`) and in its panel's ops strip view; `acpThreads.retry` on the row takes the rung in the
// host (the turn is cancelled). The agent's elicitation is asked in the window following the thread, with the
// window's own quick-input steps, and the answer reaches the agent. A hosted thread kept open between prompts stays
// after a turn the agent answered with an error, as a window session does.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { api, useFakeAgent, waitFor } from "./helpers";
import { cli, detach, hostedNode, sendNewInHost } from "./host-cli";

const agentSaid = (records: { kind: string; text?: string }[]) =>
  records.flatMap((r) => (r.kind === "agent_message" && r.text ? [r.text] : [])).join("");

describe("the thread host's watchdog and elicitations in the window", () => {
  before(useFakeAgent);
  afterEach(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  it("a silent hosted turn: its row shows the stall with Retry, the ops view too; Retry cancels it in the host", async () => {
    const { hub } = await api();
    const id = await detach(hub.home, ["--stall-timeout", "1", "--retry", "offer", "sleep 60000"]);
    try {
      await waitFor("the stall reaches the window", () => hub.hosted.rows().find((r) => r.threadId === id)?.watchdog);
      const node = await waitFor("the hosted row", () => hostedNode(id));
      const item = await hub.tree.getTreeItem(node);
      assert.equal(item.contextValue, "hosted-alert");
      assert.match(String(item.description), /^Stalled · /);
      const ops = await hub.ops.view(id);
      assert.equal(ops.alert?.kind, "stalled");
      assert.equal(ops.next, "cancel");
      assert.equal(ops.auto, false);

      await vscode.commands.executeCommand("acpThreads.retry", node);
      await waitFor("the turn cancelled, the run over", () => !hub.hosted.rows().some((r) => r.threadId === id));
      assert.ok(
        hub.threads.read(id).records.some((r) => r.kind === "turn_end" && r.stopReason === "cancelled"),
        "the retry's cancel ended the turn",
      );
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });

  it("a hosted thread kept open stays after an error turn: the panel shows the error, then idle; the next prompt is answered", async () => {
    const { hub } = await api();
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    try {
      const id = await sendNewInHost("fake", [{ type: "text", text: "fail upstream 500" }]);
      const view = await waitFor("its view", () => hub.hosted.get(id));
      const upTo = await waitFor("the failed turn ended", () => {
        const records = hub.threads.read(id).records;
        return records.some((r) => r.kind === "turn_end" && r.stopReason === "error") ? records.length : undefined;
      });
      // the panel gets the host's records after the file has them: a view that has seen none yet is idle too
      await waitFor(
        "the panel idle after the failed turn",
        () => view.cursor >= upTo && view.status === "idle",
        30_000,
      );
      assert.ok(
        view.events.some((e) => e.type === "error" && /upstream 500/.test(e.message)),
        "the panel has the error",
      );
      await waitFor("the row idle, not closed", async () => (await hostedNode(id))?.status === "idle");
      assert.equal(view.ended, false, "the host still holds the run");

      await view.prompt("two");
      await waitFor("the next prompt answered by the same run", () =>
        agentSaid(hub.threads.read(id).records as { kind: string; text?: string }[]).includes("echo: two"),
      );
      await waitFor("idle again", () => view.status === "idle", 30_000);
      assert.equal(hub.hosted.get(id), view, "the same view and run");
    } finally {
      await cfg.update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });

  it("the agent's elicitation in a hosted run is asked in the window following it; the answer reaches the agent", async () => {
    const { hub } = await api();
    // the first turn lasts until the panel follows the thread (a fixed sleep lost to a loaded window: the question
    // came with no window following, and the run ended before the panel opened)
    const release = join(mkdtempSync(join(tmpdir(), "acp-elicit-")), "go");
    const id = await detach(hub.home, [`until ${release}`, "elicit"]);
    try {
      await waitFor("the thread in the host", () => hub.hosted.rows().find((r) => r.threadId === id));
      await vscode.commands.executeCommand("acpThreads.openThread", id);
      const view = await waitFor("the panel's view", () => hub.hosted.get(id));
      writeFileSync(release, "");
      await waitFor("the question is asked here", () => view.status === "waiting_permission");
      await waitFor("the form answered, the agent told", async () => {
        const said = agentSaid(hub.threads.read(id).records as { kind: string; text?: string }[]);
        if (!said.includes("elicitation:"))
          await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
        return said.includes('elicitation: accept {"name":"Ada","count":3}');
      });
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });
});
