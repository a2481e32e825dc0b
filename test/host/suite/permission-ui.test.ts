// Issue 37 items 9–10 and issue 33's "outside the workspace" mark in the real extension host, driven through the
// broker's asker (the seam the engine asks through): the background notification names the file and offers only
// Allow / Deny / Open; the prompt carries the paths outside the workspace; the Review diff of a request closes
// when the request is answered anywhere (card, keys, notification) or withdrawn.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as vscode from "vscode";
import type { PermissionPrompt } from "../../../src/core/ports";
import { api, waitFor, workspaceRoot } from "./helpers";

const diffOpen = () =>
  vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff));

/** A request as claude-agent-acp words it: a vague title, long option names, the file only in `locations`. */
function editRequest(signal: AbortSignal, extra: Partial<PermissionPrompt> = {}): PermissionPrompt {
  const path = join(workspaceRoot(), "src", "greet.js");
  return {
    sessionId: "s1",
    agentId: "claude",
    signal,
    request: {
      sessionId: "s1",
      toolCall: { toolCallId: `edit-${Math.random()}`, title: "Editing files", kind: "edit", locations: [{ path }] },
      options: [
        { optionId: "yes", name: "Yes", kind: "allow_once" },
        { optionId: "always", name: "Yes, and don't ask again for this session", kind: "allow_always" },
        { optionId: "no", name: "No, and tell Claude what to do differently", kind: "reject_once" },
      ],
    },
    ...extra,
  };
}

describe("permission requests outside the panel", () => {
  afterEach(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  it("the notification names the file and what lies outside the workspace, with only Allow / Deny / Open", async () => {
    const { hub } = await api();
    const seen = hub.broker.notifier.shown;
    const threadId = "perm-ui-toast";
    const answer = hub.broker
      .askerFor(threadId, () => "Claude")
      .ask(editRequest(new AbortController().signal, { outside: ["/etc/hosts"] }));
    const toast = await waitFor("the notification", () =>
      hub.broker.notifier.since(seen).find((n) => n.message.startsWith("Claude asks")),
    );
    assert.equal(toast.message, "Claude asks: Editing files — src/greet.js (outside the workspace: /etc/hosts)");
    assert.deepEqual(toast.items, ["Allow", "Deny", "Open"], "the agent's long options stay in the panel");
    const pending = hub.broker.pendingFor(threadId)[0]!;
    assert.deepEqual(pending.outside, ["/etc/hosts"], "the panel's card gets the paths to mark");
    hub.broker.answer(pending.requestId, "no");
    assert.equal(await answer, "no");
  });

  for (const how of ["answered", "cancelled"] as const) {
    it(`the Review diff closes when the request is ${how} elsewhere`, async () => {
      const { hub } = await api();
      const threadId = `perm-ui-diff-${how}`;
      const abort = new AbortController();
      const path = join(workspaceRoot(), "src", "greet.js");
      const answer = hub.broker
        .askerFor(threadId, () => "Claude")
        .ask(
          editRequest(abort.signal, {
            proposed: { path, oldText: "old\n", newText: "new\n" },
          }),
        );
      const pending = await waitFor("the request", () => hub.broker.pendingFor(threadId)[0]);
      await hub.broker.review(pending.requestId);
      await waitFor("the diff editor", diffOpen);
      if (how === "answered")
        hub.broker.answer(pending.requestId, "yes"); // what the card, the keys and the notification call
      else abort.abort(); // the turn was cancelled
      assert.equal(await answer, how === "answered" ? "yes" : null);
      await waitFor("the diff to close", () => !diffOpen(), 10_000);
    });
  }
});
