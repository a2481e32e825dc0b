// Issue #27 items 10 and 11 in the real extension host. One name and one figure per thread: the tab, the panel
// header, the sessions tree (label and hover), the status bar and the line-provenance hover show the same title,
// the @-mention of the first prompt kept, and follow the agent's own title (session_info, as codex-acp 2.6 names
// threads); the header shows the status bar's usage figure. The new-thread panel: no agent in its header and no
// "Ready" before one is picked, the permission setting and agent list follow Settings while it is open, and new
// threads open as tabs of one editor group.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ComposerPanel } from "../../../src/vscode/composer/composer-host";
import type { ComposerState, HostMessage } from "../../../src/webview/thread/protocol";
import { api, hoveredRow, tipText, useFakeAgent, waitFor, workspaceRoot } from "./helpers";
import { sessionOf } from "./session-of";

function fakePanel(threadId: string): ComposerPanel & { posts: HostMessage[]; drafts(): ComposerState["draft"][] } {
  const posts: HostMessage[] = [];
  return {
    threadId,
    posts,
    post: (m) => void posts.push(m),
    drafts: () => posts.flatMap((m) => (m.type === "composer" && m.state.draft ? [m.state.draft] : [])),
  };
}

const md = (s: string) => s.replace(/[\\`*_{}[\]()#+\-.!|<>$]/g, "\\$&");

async function hoverText(file: string, line: number): Promise<string> {
  const doc = await vscode.workspace.openTextDocument(file);
  const hovers =
    (await vscode.commands.executeCommand<vscode.Hover[]>(
      "vscode.executeHoverProvider",
      doc.uri,
      new vscode.Position(line, 1),
    )) ?? [];
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === "string" ? c : "value" in c ? c.value : ""))
    .join("\n");
}

const cfg = () => vscode.workspace.getConfiguration("acpThreads");

describe("one name and one figure per thread (#27 item 10)", () => {
  before(async () => {
    await useFakeAgent();
    await cfg().update("permissionMode", "approve-all", vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await cfg().update("permissionMode", "approve-reads", vscode.ConfigurationTarget.Global);
  });

  it("tab, header, tree, its hover, the status bar and the provenance hover name the thread alike", async () => {
    const { hub } = await api();
    const file = join(workspaceRoot(), "n27.txt");
    writeFileSync(file, "old\n");
    const draft = await vscode.commands.executeCommand<string>("acpThreads.spawn");
    await waitFor("the new thread's panel", () => hub.panels.get(draft));
    const box = fakePanel(draft);
    hub.composer.attach(box);
    const readme = join(workspaceRoot(), "README.md");
    await hub.composer.handle(box, {
      type: "send",
      parts: [
        { type: "text", text: `write ${file} hi ` },
        { type: "context", ref: { kind: "file", label: "README.md", uri: `file://${readme}`, path: readme } },
      ],
      agentId: "fake",
      mode: "session",
    });
    const s = await sessionOf(hub, draft, "the live session");
    await waitFor("the write turn to end", () => s.status === "idle" && s.events.some((e) => e.type === "done"));
    const turn = async (text: string) => {
      const done = s.events.filter((e) => e.type === "done").length;
      await s.prompt(text);
      await waitFor(`"${text}" to end`, () => s.events.filter((e) => e.type === "done").length > done);
    };
    await waitFor("the ledger's turn 1", () => hub.ledger.ledger.read(s.threadId).ops.find((o) => o.op === "turn-1"));

    const everywhere = async (title: string) => {
      const shown = hub.panels.shown(s.threadId)!;
      const item = await hoveredRow({ type: "live", threadId: s.threadId });
      return {
        session: s.title,
        tab: shown.tab,
        header: shown.title,
        tree: String(item.label),
        treeHover: tipText(item.tooltip).includes(`**${md(title)}**`) ? title : tipText(item.tooltip),
        provenance: (await hoverText(file, 0)).includes(`“${md(title)}”`) ? title : await hoverText(file, 0),
      };
    };
    const first = `write ${file} hi @README.md`;
    const same = (title: string) => ({
      session: title,
      tab: title,
      header: title,
      tree: title,
      treeHover: title,
      provenance: title,
    });
    assert.deepEqual(await everywhere(first), same(first), "the first prompt names the thread, @-mention kept");

    // usage: the header shows the status bar's figure
    await turn("cost 1200 300 0.05");
    const figure = hub.usageStatus.item.text.replace(/^\$\(graph\) /, "");
    assert.equal(figure, "$0.05 · 1.5k tok · ctx 1%");
    await waitFor("the header's figure", () => hub.panels.shown(s.threadId)?.usage === figure);
    assert.ok(tipText(hub.usageStatus.item.tooltip).includes(md(first)), "the status bar's tooltip names it too");

    // the agent names the thread (codex-acp 2.6 does): every place follows, the provenance hover included
    await turn("title Fixing the greeting in greet.js");
    const named = "Fixing the greeting in greet.js";
    await waitFor("the agent's title", () => s.title === named);
    assert.deepEqual(await everywhere(named), same(named));
    assert.ok(tipText(hub.usageStatus.item.tooltip).includes(md(named)));
    await s.close();
  });
});

describe("the new-thread panel (#27 item 11)", () => {
  before(useFakeAgent);
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await cfg().update("permissionMode", "approve-reads", vscode.ConfigurationTarget.Global);
  });

  it("no agent in its header, no Ready before an agent runs; it follows Settings while open", async () => {
    const { hub } = await api();
    await cfg().update("permissionMode", "approve-reads", vscode.ConfigurationTarget.Global);
    const draft = await vscode.commands.executeCommand<string>("acpThreads.spawn");
    const shown = await waitFor("the header", () =>
      hub.panels.shown(draft)?.status ? hub.panels.shown(draft) : undefined,
    );
    assert.deepEqual(
      { title: shown.title, agent: shown.agent, status: shown.status, tab: shown.tab },
      { title: "New thread", agent: "", status: "draft", tab: "New thread" },
      'one "New thread", and nothing says Ready',
    );
    const box = fakePanel(draft);
    hub.composer.attach(box);
    await waitFor("its agent list", () => box.drafts().length > 0);
    assert.equal(box.drafts()[0]?.policy, "reads pass; edits and commands ask you");
    // Settings change while the panel is open: the permission setting and the agent list follow
    await cfg().update("permissionMode", "ask", vscode.ConfigurationTarget.Global);
    await waitFor("the policy to follow", () => box.drafts().at(-1)?.policy === "asks you before every action");
    const agents = cfg().get<Record<string, unknown>>("agents") ?? {};
    await cfg().update(
      "agents",
      { ...agents, "later-27": { command: process.execPath, args: ["-e", "0"], displayName: "Added later" } },
      vscode.ConfigurationTarget.Global,
    );
    await waitFor("the new agent in the list", () =>
      box
        .drafts()
        .at(-1)
        ?.agents.some((a) => a.id === "later-27"),
    );
    await cfg().update("agents", agents, vscode.ConfigurationTarget.Global);
  });

  it("new threads open as tabs of one editor group, not a new column each", async () => {
    const { hub } = await api();
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const doc = await vscode.workspace.openTextDocument(join(workspaceRoot(), "README.md"));
    await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    const a = await vscode.commands.executeCommand<string>("acpThreads.spawn");
    const pa = await waitFor("the first panel", () => hub.panels.get(a));
    const groups = await waitFor("the first thread's tab", () =>
      vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputWebview))
        ? vscode.window.tabGroups.all.length
        : 0,
    );
    // the user works in the thread (its group active): "beside" it would be a new column for each new thread
    const focus = async (p: vscode.WebviewPanel) => {
      p.reveal(undefined, false);
      await vscode.commands.executeCommand("workbench.action.focusSecondEditorGroup");
      await waitFor(
        "the thread's group to be active",
        () => vscode.window.tabGroups.activeTabGroup.viewColumn === p.viewColumn,
      );
    };
    await focus(pa);
    const b = await vscode.commands.executeCommand<string>("acpThreads.spawn");
    const pb = await waitFor("the second panel", () => hub.panels.get(b));
    await focus(pb);
    const c = await vscode.commands.executeCommand<string>("acpThreads.spawn");
    const pc = await waitFor("the third panel", () => hub.panels.get(c));
    assert.equal(vscode.window.tabGroups.all.length, groups, "no new column per thread");
    assert.deepEqual([pb.viewColumn, pc.viewColumn], [pa.viewColumn, pa.viewColumn], "the threads' group");
  });
});
