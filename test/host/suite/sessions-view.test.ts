import assert from "node:assert/strict";
import * as vscode from "vscode";
import { ThreadStore } from "../../../src/core/store/thread-store";
import type { SessionNode } from "../../../src/vscode/sessions-tree";
import { api, spawnIdleFake, useFakeAgent, waitFor, writePastThread } from "./helpers";
import { offeredOn } from "./menus";
import { AGE_TICKS } from "../../../src/vscode/sessions-ticks";
import { age } from "../../../src/vscode/time-format";

/** The live session's node in the tree. */
async function liveNode(threadId: string): Promise<SessionNode> {
  const { hub } = await api();
  const groups = await hub.tree.getChildren();
  const all = groups.flatMap((g) => (g.type === "group" ? g.children : [g]));
  const node = all.find((n) => n.type === "live" && n.threadId === threadId);
  assert.ok(node, "the live session is in the tree");
  return node;
}

describe("the sessions view", () => {
  it("offers Cancel on a live session only while a turn runs", async () => {
    await useFakeAgent();
    const { hub } = await api();
    const s = await spawnIdleFake();
    const item = async () => hub.tree.getTreeItem(await liveNode(s.threadId));
    const offered = offeredOn("acpThreads.cancel");
    assert.equal(offered((await item()).contextValue), false, "an idle session has nothing to cancel");
    const done = s.prompt("sleep 3000");
    await waitFor("the turn to run", () => s.status === "working");
    assert.equal(offered((await item()).contextValue), true, "a running turn can be cancelled");
    await s.cancel();
    await done;
    await s.close();
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("lists a past thread under its day, and Open renders it read-only", async () => {
    const { hub } = await api();
    const threadId = writePastThread(hub.home, 3);
    hub.tree.refresh();
    // The file was written by another store (as the CLI or another window would): the catalog sees it through its
    // folder listing or watcher. CI once listed no Today group on the first look; wait for it, and say what the
    // tree showed if it never comes.
    let shown = "";
    const listed = async () => {
      const groups = await hub.tree.getChildren();
      shown = groups.map((g) => (g.type === "group" ? `${g.label} (${g.children.length})` : g.type)).join(", ");
      const today = groups.find((g) => g.type === "group" && g.label === "Today");
      return today?.type === "group"
        ? today.children.find(
            (c): c is Extract<SessionNode, { type: "past" }> => c.type === "past" && c.thread.threadId === threadId,
          )
        : undefined;
    };
    const node = await waitFor("the past thread under Today", listed, 10_000).catch((err: Error) => {
      throw new Error(`${err.message}; the tree shows: ${shown || "nothing"}`);
    });
    const item = hub.tree.getTreeItem(node);
    assert.equal(item.label, "past thread with 3 exchanges");
    assert.equal(item.contextValue, "past");
    await vscode.commands.executeCommand("acpThreads.openThread", node);
    const r = await waitFor("the panel to render", () => hub.panels.rendered(threadId));
    assert.equal(r.entries, 9, "3 questions, 3 answers, 3 turn ends");
  });

  it("opens a thread with thousands of messages showing only a window of the newest", async () => {
    const { hub } = await api();
    const threadId = writePastThread(hub.home, 2000);
    const started = Date.now();
    await vscode.commands.executeCommand("acpThreads.openThread", threadId);
    const r = await waitFor("the big panel to render", () => hub.panels.rendered(threadId));
    console.log(
      `[figure] past thread with 6000 entries opened and rendered in ${Date.now() - started} ms (${r.inDom} in the DOM)`,
    );
    assert.equal(r.entries, 6000);
    assert.ok(r.inDom <= 200, `only a window is in the DOM (${r.inDom})`);
  });

  it("restores a panel after a reload from its saved state (the serializer re-reads the thread)", async () => {
    const { hub } = await api();
    const threadId = writePastThread(hub.home, 4);
    // What VS Code does on reload: a fresh panel of our view type, handed to the registered serializer.
    const panel = vscode.window.createWebviewPanel("acpThreads.thread", "restored", vscode.ViewColumn.One);
    await hub.panels.deserializeWebviewPanel(panel, { threadId });
    const r = await waitFor("the restored panel to render", () => hub.panels.rendered(threadId));
    assert.equal(r.entries, 12);
    assert.equal(hub.panels.get(threadId), panel);
    panel.dispose();
    assert.equal(hub.panels.get(threadId), undefined, "disposing forgets the panel");
  });

  it("filters by workspace: a thread from another folder is hidden until 'all workspaces'", async () => {
    const { hub } = await api();
    const store = new ThreadStore(hub.home);
    const h = store.create({
      agent: { id: "x", name: "Other", command: "/bin/true" },
      mode: "acp",
      cwd: "/elsewhere",
      repoRoot: null,
      gitHead: null,
      title: "elsewhere thread",
    });
    h.close();
    const titles = async () =>
      (await hub.tree.getChildren())
        .flatMap((g) => (g.type === "group" ? g.children : []))
        .flatMap((c) => (c.type === "past" ? [c.thread.title] : []));
    assert.ok(!(await titles()).includes("elsewhere thread"));
    const saved = hub.tree.filter;
    hub.tree.filter = { cwds: [] };
    assert.ok((await titles()).includes("elsewhere thread"));
    hub.tree.filter = saved;
  });

  it("a live row has Rename; a rename keeps the thread's age (#37)", async () => {
    await useFakeAgent();
    const { hub } = await api();
    const s = await spawnIdleFake();
    const live = () => liveNode(s.threadId);
    const offered = offeredOn("acpThreads.rename");
    assert.ok(offered(hub.tree.getTreeItem(await live()).contextValue), "Rename is on a live row");
    assert.ok(offered("past"), "and on a past one");
    await vscode.commands.executeCommand("acpThreads.rename", await live(), "renamed while live");
    assert.equal(s.title, "renamed while live");
    assert.equal(hub.tree.getTreeItem(await live()).label, "renamed while live");
    assert.equal(hub.threads.readMetadata(s.threadId).title, "renamed while live");
    // a rename is no activity: the age the tree shows stays
    const past = writePastThread(hub.home, 1);
    const before = hub.threads.readMetadata(past).lastActivity;
    await new Promise((r) => setTimeout(r, 20));
    hub.threads.rename(past, "renamed later");
    assert.equal(hub.threads.readMetadata(past).lastActivity, before);
    await s.close();
  });

  it("the 5 s tick redraws a working session's row, and each minute past rows' ages, without listing again (#36)", async () => {
    await useFakeAgent();
    const { hub } = await api();
    const tree = hub.tree;
    const past = writePastThread(hub.home, 1);
    const s = await spawnIdleFake();
    await vscode.commands.executeCommand("acpThreads.sessions.focus"); // VS Code draws the view's rows
    const isLive = (n: SessionNode) => n.type === "live" && n.threadId === s.threadId;
    const isPast = (n: SessionNode) => n.type === "past" && n.thread.threadId === past;
    const groups = await waitFor("the live session and the past thread listed", async () => {
      const top = await tree.getChildren();
      const live = top.find((g) => g.type === "group" && g.children.some(isLive));
      const today = top.find((g) => g.type === "group" && g.children.some(isPast));
      return live && today ? { live, today } : undefined;
    });
    // what VS Code asks of the tree from here (its extension host side calls the provider's methods)
    const drawn: SessionNode[] = [];
    const asked: (SessionNode | undefined)[] = [];
    const fired: (SessionNode | SessionNode[] | undefined)[] = [];
    const { getTreeItem, getChildren } = tree;
    /** The live row's looks as drawn ("live-working" while its turn runs). */
    const liveLooks: string[] = [];
    tree.getTreeItem = (n) => {
      const item = getTreeItem.call(tree, n);
      drawn.push(n);
      if (isLive(n)) liveLooks.push(String(item.contextValue));
      return item;
    };
    tree.getChildren = (n) => (asked.push(n), getChildren.call(tree, n));
    const sub = tree.onDidChangeTreeData((e) => fired.push(e));
    // a turn that runs until the end of the test (cancelled in `finally`): every tick below comes while it works
    const done = s.prompt("sleep 60000");
    try {
      await waitFor("the turn to run", () => s.status === "working");
      const description = () => String(getTreeItem.call(tree, drawn.filter(isLive).at(-1)!).description);
      // the status change's own refresh drawn (not a fixed wait: VS Code draws when it gets to it)
      await waitFor("VS Code to draw the working row", () => liveLooks.includes("live-working"));
      fired.length = drawn.length = asked.length = 0;
      tree.tick(1);
      assert.deepEqual(fired, [[groups.live]], "a tick while a turn runs: the Live group, not the root");
      await waitFor("VS Code to redraw the live row", () => drawn.some(isLive));
      assert.ok(asked.includes(groups.live), "its rows from the last listing");
      assert.match(description(), /· \d+s$/, "its elapsed time");
      fired.length = drawn.length = asked.length = 0;
      tree.tick(AGE_TICKS);
      const minute = fired[0];
      assert.ok(Array.isArray(minute), "the minute's tick: groups, not the root (no relisting of every thread)");
      assert.ok(minute.includes(groups.today) && minute.includes(groups.live), "every top-level group");
      const row = await waitFor("VS Code to redraw the past thread's row", () => drawn.find(isPast));
      assert.ok(row.type === "past");
      assert.match(String(getTreeItem.call(tree, row).description), new RegExp(`· ${age(row.thread.updatedAt)}$`));
    } finally {
      sub.dispose();
      delete (tree as Partial<typeof tree>).getTreeItem;
      delete (tree as Partial<typeof tree>).getChildren;
      await s.cancel();
      await done;
      await s.close();
    }
  });
});
