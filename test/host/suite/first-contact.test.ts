// Issue #27, first contact with the extension, in the real extension host: the agent picked in a new thread's
// panel stays picked when doctor's versions arrive later (they re-send the list), and a task is never run as a
// shell command: "Custom command line" is never preselected, runs only its own command field, and a run that
// exits non-zero shows as failed in the Sessions view.
import assert from "node:assert/strict";
import type * as vscode from "vscode";
import { newThreadId } from "../../../src/core/store/thread-id";
import type { ComposerPanel } from "../../../src/vscode/composer/composer-host";
import type { SessionNode } from "../../../src/vscode/sessions-tree";
import type { ComposerState, HostMessage } from "../../../src/webview/thread/protocol";
import { api, useFakeAgent, waitFor } from "./helpers";

function draftPanel(): ComposerPanel & { posts: HostMessage[]; drafts(): NonNullable<ComposerState["draft"]>[] } {
  const posts: HostMessage[] = [];
  return {
    threadId: newThreadId(),
    posts,
    post: (m) => void posts.push(m),
    drafts: () => posts.flatMap((m) => (m.type === "composer" && m.state.draft ? [m.state.draft] : [])),
  };
}

async function openDraft() {
  const { hub } = await api();
  const panel = draftPanel();
  assert.ok(hub.composer.isDraft(panel.threadId), "an unknown thread id is a new thread's panel");
  hub.composer.attach(panel);
  return panel;
}

describe("first contact (#27)", () => {
  before(async () => {
    await useFakeAgent();
  });

  it("the agent picked before doctor's versions arrive stays picked (the pick never reverts)", async () => {
    const { hub } = await api();
    const earlier = await openDraft();
    await hub.composer.handle(earlier, { type: "pickAgent", agentId: "fake" }); // the last pick: "fake"
    const panel = await openDraft();
    assert.equal(panel.drafts()[0]?.agentId, "fake", "the panel opens on the last agent used");
    // the user picks another agent while doctor still runs
    await hub.composer.handle(panel, { type: "pickAgent", agentId: "exec:codex" });
    const later = await waitFor("doctor's list with versions", () =>
      panel.drafts().length >= 2 ? panel.drafts() : undefined,
    );
    assert.equal(later.at(-1)!.agentId, "exec:codex", "the list sent after the pick keeps the user's pick");
    assert.deepEqual([later[0]!.checked, later.at(-1)!.checked], [false, true], "doctor's list says it is checked");
    // a later panel in this window starts from that pick too, and a refresh keeps each panel's own pick
    await hub.composer.handle(earlier, { type: "pickAgent", agentId: "fake" });
    hub.composer.refreshDrafts();
    assert.equal(panel.drafts().at(-1)!.agentId, "exec:codex");
    assert.equal(earlier.drafts().at(-1)!.agentId, "fake");
  });

  it("never preselects Custom command line, and never runs the task text as a command", async () => {
    const { hub } = await api();
    const first = await openDraft();
    await hub.composer.handle(first, { type: "pickAgent", agentId: "exec:custom" }); // last used: custom
    const panel = await openDraft();
    assert.equal(panel.drafts()[0]!.agentId, undefined, "a command line is never picked for the user");
    const before = hub.live.execs().length;
    await hub.composer.handle(panel, {
      type: "send",
      parts: [{ type: "text", text: "explain what src/app.js does" }],
      agentId: "exec:custom",
    });
    const notice = panel.posts.find((m) => m.type === "composerNotice");
    assert.ok(notice?.type === "composerNotice" && /command line/.test(notice.message), JSON.stringify(notice));
    assert.equal(hub.live.execs().length, before, "nothing ran");
    assert.ok(hub.composer.isDraft(panel.threadId), "the panel stays a new thread");
  });

  it("a custom command line runs its own field; exit 127 shows as failed in the Sessions view", async () => {
    const { hub } = await api();
    const panel = await openDraft();
    const before = new Set(hub.live.execs().map((e) => e.runId));
    await hub.composer.handle(panel, {
      type: "send",
      parts: [{ type: "text", text: "my check" }],
      agentId: "exec:custom",
      command: "acp-threads-no-such-command-27 --help", // a shell line: `sh -c` exits 127
    });
    assert.deepEqual(
      panel.posts.filter((m) => m.type === "composerNotice"),
      [],
      "no error",
    );
    const run = await waitFor("the run", () => hub.live.execs().find((e) => !before.has(e.runId)));
    assert.match(run.commandLine, /acp-threads-no-such-command-27/, "the command field ran");
    assert.doesNotMatch(run.commandLine, /my check/, "the prompt text did not");
    assert.equal(run.title, "my check", "the prompt text names the run");
    await waitFor("the run to end", () => run.status !== "running");
    assert.equal(run.status, "failed");
    assert.equal(run.exitCode, 127);
    const node: SessionNode = { type: "exec", runId: run.runId };
    const item = hub.tree.getTreeItem(node);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, "error", "the failed icon, not a green check");
    assert.match(String(item.description), /exit 127/);
    run.terminal.dispose();
  });
});
