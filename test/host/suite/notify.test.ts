// Issue 27 item 5: while a thread's panel is hidden, a permission request and a finished turn raise a notification
// that names the request (not the thread's first prompt), with the agent's options and Open.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { api, spawnIdleFake, useFakeAgent, waitFor } from "./helpers";

describe("notifications while the panel is hidden", () => {
  before(useFakeAgent);

  it("a permission request names the request and offers Allow and Open; the finished turn names its prompt", async () => {
    const { hub } = await api();
    const s = await spawnIdleFake("hello there, first prompt");
    await waitFor("the first turn to end", () => s.status === "idle" && s.lastPrompt);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await waitFor("the panel to be hidden", () => !hub.panels.isVisible(s.threadId));
    const seen = hub.broker.notifier.shown;
    const done = new Promise<void>((r) => s.onTurnDone(() => r()));
    void s.prompt("ask execute");
    const ask = await waitFor("the permission notification", () =>
      hub.broker.notifier.since(seen).find((n) => n.message.includes("asks")),
    );
    assert.equal(ask.message, "Fake agent asks: A execute tool");
    assert.deepEqual(ask.items, ["Allow", "Deny", "Open"]); // the agent's Allow / Reject behind our two words
    assert.ok(!ask.message.includes("first prompt"), "named by the request, not by the thread's first prompt");
    const pending = await waitFor("the pending request", () => hub.broker.pendingFor(s.threadId)[0]);
    hub.broker.answer(pending.requestId, "ok");
    await done;
    const finished = await waitFor("the finished-turn notification", () =>
      hub.broker.notifier.since(seen).find((n) => n.message.includes("finished")),
    );
    assert.equal(finished.message, "Fake agent finished “ask execute”");
    assert.deepEqual(finished.items, ["Open"]);
    await s.close();
  });

  it("a request shown in the panel is notified once when the panel is closed before it is answered", async () => {
    const { hub } = await api();
    const s = await spawnIdleFake();
    assert.ok(hub.panels.isVisible(s.threadId));
    const seen = hub.broker.notifier.shown;
    const done = new Promise<void>((r) => s.onTurnDone(() => r()));
    void s.prompt("ask execute");
    const pending = await waitFor("the pending request", () => hub.broker.pendingFor(s.threadId)[0]);
    assert.equal(hub.broker.notifier.shown, seen, "shown inline in the visible panel: no notification yet");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const ask = await waitFor("the permission notification", () =>
      hub.broker.notifier.since(seen).find((n) => n.message.includes("asks")),
    );
    assert.equal(ask.message, "Fake agent asks: A execute tool");
    hub.panels.open(s.threadId);
    await waitFor("the panel to be visible", () => hub.panels.isVisible(s.threadId));
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await waitFor("the panel to be hidden", () => !hub.panels.isVisible(s.threadId));
    const asks = hub.broker.notifier.since(seen).filter((n) => n.message.includes("asks"));
    assert.equal(asks.length, 1, "hiding the panel again does not repeat the notification");
    hub.broker.answer(pending.requestId, "ok");
    await done;
    await s.close();
  });

  it("the pending-permission command says so when nothing waits", async () => {
    const { hub } = await api();
    await vscode.commands.executeCommand("acpThreads.showPendingPermission");
    assert.equal(hub.broker.notifier.recent.at(-1)?.message, "No agent is waiting for permission.");
  });

  it("no notification for a turn that ends while its panel is visible", async () => {
    const { hub } = await api();
    const s = await spawnIdleFake();
    assert.ok(hub.panels.isVisible(s.threadId));
    const seen = hub.broker.notifier.shown;
    await s.prompt("hello");
    assert.equal(hub.broker.notifier.shown, seen);
    await s.close();
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });
});
