// Issue 16 behaviours on the host side: the review diff's Accept / Reject title actions answer a permission
// request; code block Insert at cursor and Apply to file; a client terminal's exit reaches the panel; the
// sessions tree shows status, agent and age. (The webview side is in the browser e2e, spec 10-panel.)
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { escapeMd } from "../../../src/vscode/session-item";
import type { SessionNode } from "../../../src/vscode/sessions-tree";
import { api, hoveredRow, useFakeAgent, waitFor, workspaceRoot, writePastThread } from "./helpers";
import { sessionOf, type TestSession } from "./session-of";

async function spawnFake(): Promise<TestSession> {
  const { hub } = await api();
  const threadId = await vscode.commands.executeCommand<string>("acpThreads.spawn", {
    agentId: "fake",
    task: "",
    mode: "session",
    cwd: workspaceRoot(),
  });
  const s = await sessionOf(hub, threadId);
  await waitFor("the session", () => s.status === "idle");
  return s;
}

const diffOpen = () =>
  vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff));

describe("the thread panel's host actions", () => {
  before(useFakeAgent);
  afterEach(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  for (const [which, optionWord] of [
    ["Accept", "wrote"],
    ["Reject", "rejected"],
  ] as const) {
    it(`${which} in the review diff's title answers the permission request and closes the diff`, async () => {
      const { hub } = await api();
      const path = join(workspaceRoot(), `review-${which}.txt`);
      rmSync(path, { force: true });
      const s = await spawnFake();
      const done = new Promise<void>((r) => s.onTurnDone(() => r()));
      void s.prompt(`write ${path} from-the-review`);
      const prompt = await waitFor("a pending permission prompt", () => hub.broker.pendingFor(s.threadId)[0]);
      assert.equal(prompt.toolCallId, "write-1", "the request names its tool call, so the card attaches to it");
      await hub.broker.review(prompt.requestId);
      await waitFor("the diff editor", diffOpen);
      const tab = vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputTextDiff);
      assert.match(tab?.label ?? "", new RegExp(`review-${which}\\.txt`), "the proposed-edit diff names its file");
      await vscode.commands.executeCommand(`acpThreads.${which.toLowerCase()}Proposed`);
      await done;
      assert.equal(hub.broker.pendingFor(s.threadId).length, 0, "answered");
      if (optionWord === "wrote") assert.equal(readFileSync(path, "utf8"), "from-the-review");
      else assert.equal(existsSync(path), false, "a rejected write does not happen");
      await waitFor("the diff to close", () => !diffOpen());
      await s.close();
    });
  }

  it("Insert at cursor puts a code block where the cursor was in the last text editor", async () => {
    const { hub } = await api();
    const path = join(workspaceRoot(), "insert-target.txt");
    writeFileSync(path, "before after\n");
    const ed = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path));
    ed.selection = new vscode.Selection(0, 7, 0, 7);
    assert.ok(await hub.panels.code.insert("INSERTED "));
    assert.equal(ed.document.getText(), "before INSERTED after\n");
    await vscode.commands.executeCommand("workbench.action.files.revert");
  });

  it("Insert at cursor reaches the editor the user was in when a panel now covers it", async () => {
    const { hub } = await api();
    const path = join(workspaceRoot(), "insert-covered.txt");
    writeFileSync(path, "a b\n");
    const ed = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path));
    ed.selection = new vscode.Selection(0, 2, 0, 2);
    const cover = vscode.window.createWebviewPanel("acpThreads.test", "cover", ed.viewColumn ?? vscode.ViewColumn.One);
    await waitFor("the panel to cover the editor", () => !vscode.window.activeTextEditor);
    assert.ok(await hub.panels.code.insert("X "));
    assert.equal(ed.document.getText(), "a X b\n");
    cover.dispose();
    await vscode.commands.executeCommand("workbench.action.files.revert");
  });

  it("Apply to file shows a diff; Accept writes the block (a new file is created)", async () => {
    const { hub } = await api();
    const rel = "applied/new-file.ts";
    const path = join(workspaceRoot(), rel);
    rmSync(join(workspaceRoot(), "applied"), { recursive: true, force: true });
    const right = await hub.panels.code.apply("export const x = 1;\n", rel, workspaceRoot());
    assert.ok(right, "a proposal was opened");
    await waitFor("the diff editor", diffOpen);
    assert.equal(existsSync(path), false, "nothing is written before Accept");
    await vscode.commands.executeCommand("acpThreads.acceptProposed", right);
    assert.equal(readFileSync(path, "utf8"), "export const x = 1;\n");
    await vscode.commands.executeCommand("acpThreads.acceptProposed", right); // a second click: already answered
    rmSync(join(workspaceRoot(), "applied"), { recursive: true, force: true });
    const outside = await hub.panels.code.apply("x", "../outside-the-workspace.txt", workspaceRoot());
    assert.equal(outside, undefined, "a path outside the workspace is refused");
  });

  it("a client terminal's exit code reaches the panel with its output", async () => {
    const { hub } = await api();
    const s = await spawnFake();
    const turn = s.prompt("terminal echo panel-exit-check");
    // the agent did not ask first: under approve-reads the engine asks before the command runs
    const prompt = await waitFor("the terminal's permission prompt", () => hub.broker.pendingFor(s.threadId)[0]);
    assert.ok(hub.broker.answer(prompt.requestId, "allow"));
    await turn;
    // what the panel's tool card was sent: the terminal's output and its exit (a thread a thread host runs: the
    // host's terminal this window shows, keyed by the agent session as a window session's)
    hub.panels.open(s.threadId);
    const recent = await waitFor("the terminal's exit", () =>
      Object.values(hub.panels.shown(s.threadId)?.terminals ?? {}).find(
        (t) => t.data.includes("panel-exit-check") && t.exit,
      ),
    );
    assert.deepEqual(recent.exit, { exitCode: 0, signal: null });
    await s.close();
  });

  it("the sessions tree shows status as an icon, agent and age in the description, all in the tooltip", async () => {
    const { hub } = await api();
    const s = await spawnFake();
    const liveItem = await hoveredRow({ type: "live", threadId: s.threadId });
    assert.equal((liveItem.iconPath as vscode.ThemeIcon).id, "circle-filled");
    assert.match(String(liveItem.description), /^Fake agent · \d+s$/);
    assert.match(
      (liveItem.tooltip as vscode.MarkdownString).value.replace(/\\/g, ""),
      /Ready for a follow-up · Fake agent/,
    );
    await s.close();
    const id = writePastThread(hub.home, 1);
    hub.tree.refresh();
    // The row is listed under Today. Waited for, not read once: stop 33's CI on VS Code 1.96 once listed the tree
    // without the new thread right after it was written (not reproduced in three runs since; see
    // docs/development-record.md, stop 33); this test is about the row's icon, description and tooltip.
    const node = await waitFor("the past thread under Today", async () => {
      const today = (await hub.tree.getChildren()).find((g) => g.type === "group" && g.label === "Today");
      return today?.type === "group"
        ? today.children.find((c) => c.type === "past" && c.thread.threadId === id)
        : undefined;
    });
    const pastItem = await hoveredRow(node);
    assert.equal(pastItem.description, "Fake agent · now");
    assert.match(
      (pastItem.tooltip as vscode.MarkdownString).value.replace(/\\/g, ""),
      /Past session · Fake agent · last active/,
    );
  });

  it("a row's tooltip is built when it is hovered (resolveTreeItem), not for every row on every refresh", async () => {
    // every refresh built a Markdown tooltip per row: 9.2 s of the extension host's thread over a host-suite pass
    const { hub } = await api();
    const updatedAt = new Date().toISOString();
    const thread = {
      ...{ threadId: "tip-past", title: "Tip test", agent: "Fake agent", agentId: "fake", cwd: "/ws/tip" },
      ...{ sessionId: "sess-1", updatedAt, mode: "acp" as const, handoff: { from: "t-from", to: ["t-to"] } },
    };
    const hosted = { threadId: "tip-hosted", status: "working", thread: { ...thread, title: "Hosted tip" } };
    const nodes: SessionNode[] = [
      { type: "past", thread },
      { type: "hosted", ...hosted },
      { type: "exec", runId: "tip-run" },
      { type: "live", threadId: "tip-live" },
    ];
    for (const node of nodes) assert.equal(hub.tree.getTreeItem(node).tooltip, undefined, `${node.type}: none yet`);
    const tip = async (node: SessionNode) => ((await hoveredRow(node)).tooltip as vscode.MarkdownString).value;
    // the text a person hovering saw before: title, status, agent, when, folder, session, handoffs
    const when = escapeMd(`last active ${new Date(updatedAt).toLocaleString()}`);
    assert.equal(
      await tip(nodes[0]!),
      `**Tip test**\n\n$(comment-discussion) Past session · Fake agent · ${when}\n\n$(folder) \`/ws/tip\`\n\n` +
        "session `sess-1`\n\n$(arrow-left) continues thread `t-from`\n\n$(arrow-right) handed off to thread `t-to`",
    );
    assert.equal(
      await tip(nodes[1]!),
      "**Hosted tip**\n\n$(sync) Working · Fake agent · runs in the thread host\n\n$(folder) `/ws/tip`\n\nsession `sess-1`",
    );
    assert.match(
      await tip(nodes[2]!),
      /^\*\*tip\\-run\*\*\n\n\$\(question\) Lost \\\(the process is gone\\\) · exec run · started/,
    );
    // a tooltip the row already has is kept
    const item = hub.tree.getTreeItem(nodes[0]!);
    item.tooltip = "kept";
    assert.equal(hub.tree.resolveTreeItem(item, nodes[0]!).tooltip, "kept");
  });
});
