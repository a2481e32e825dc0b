/**
 * The Sessions view at history scale (#36), in the real extension host: 1,000 past threads page by day and month
 * (never 2,000 rows at once), the filter (origin, archived) is kept and named in the view, and archive on a
 * selection of several rows takes them out of the view and into the archived filter; "Since you left" lists each
 * thread's changed files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import * as vscode from "vscode";
import { ThreadStore } from "../../../src/core/store/thread-store";
import type { SessionNode } from "../../../src/vscode/sessions-tree";
import { PAGE } from "../../../src/vscode/sessions-groups";
import { api, waitFor, workspaceRoot, writePastThread } from "./helpers";

type Group = Extract<SessionNode, { type: "group" }>;
const DAY = 86_400_000;

/** `n` past threads in this workspace, one every `stepMs` back from now, started by `startedFrom`. */
function writeHistory(home: string, n: number, stepMs: number, startedFrom: string, title: string): string[] {
  const store = new ThreadStore(home);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const h = store.create(
      {
        agent: { id: "fake", name: "Fake agent", command: "/bin/true" },
        mode: "acp",
        cwd: workspaceRoot(),
        repoRoot: null,
        gitHead: null,
        title: `${title} ${i}`,
        startedFrom,
      },
      new Date(Date.now() - 60_000 - i * stepMs),
    );
    h.close();
    ids.push(h.threadId);
  }
  return ids;
}

const groupsOf = async (): Promise<Group[]> => {
  const { hub } = await api();
  return (await hub.tree.getChildren()).filter((g): g is Group => g.type === "group");
};

describe("the sessions view at history scale", () => {
  let saved: ReturnType<typeof Object.assign>;
  before(async () => {
    const { hub } = await api();
    saved = hub.tree.filter;
  });
  after(async () => {
    const { hub } = await api();
    hub.tree.setFilter(saved);
  });

  it("pages 1,000 past threads: the last week by day, older months closed, one page of rows per group", async () => {
    const { hub } = await api();
    writeHistory(hub.home, 1000, DAY / 10, "automation", "bulk"); // 100 days of history
    hub.tree.setFilter({ cwds: saved.cwds, origin: "automation" });
    const started = Date.now();
    const groups = await waitFor(
      "the history in the tree",
      async () => {
        const g = await groupsOf();
        return g.reduce((n, x) => n + x.children.length, 0) >= 1000 ? g : undefined;
      },
      30_000,
    );
    console.log(`[figure] 1,000 threads listed and grouped in ${Date.now() - started} ms (${groups.length} groups)`);
    const months = groups.filter((g) => g.id.startsWith("month:"));
    assert.ok(months.length >= 3, "older threads group by month");
    assert.ok(
      months.every((g) => hub.tree.getTreeItem(g).collapsibleState === vscode.TreeItemCollapsibleState.Collapsed),
    );
    const biggest = months.reduce((a, b) => (a.children.length >= b.children.length ? a : b));
    const rows = await hub.tree.getChildren(biggest);
    assert.equal(rows.length, PAGE + 1, "one page of rows and 'Show more'");
    const more = rows[PAGE]!;
    assert.equal(more.type, "more");
    const fired: (SessionNode | SessionNode[] | undefined)[] = [];
    const sub = hub.tree.onDidChangeTreeData((e) => fired.push(e));
    await vscode.commands.executeCommand("acpThreads.showMoreSessions", more);
    sub.dispose();
    // the group's node as the tree last listed it (VS Code refreshes an element by its object): its rows alone
    assert.ok(fired.includes(biggest), "'Show more' refreshed its group, not every thread (#36: no stall at 10,000)");
    const next = await hub.tree.getChildren(biggest);
    assert.equal(next.filter((r) => r.type === "past").length, Math.min(2 * PAGE, biggest.children.length));
    assert.match(hub.tree.describeFilter(), /by automation/, "the view's description names the filter");
  });

  it("archives a selection of several rows: they leave the view, the archived filter shows them", async () => {
    const { hub } = await api();
    const ids = writeHistory(hub.home, 3, 1000, "cli", "to archive");
    hub.tree.setFilter({ cwds: saved.cwds, origin: "cli" });
    const rows = await waitFor("the three threads", async () => {
      const all = (await groupsOf()).flatMap((g) => g.children);
      const mine = all.filter((n) => n.type === "past" && ids.includes(n.thread.threadId));
      return mine.length === 3 ? mine : undefined;
    });
    await vscode.commands.executeCommand("acpThreads.archive", rows[0], rows.slice(0, 2));
    const left = async () =>
      (await groupsOf()).flatMap((g) => g.children).flatMap((n) => (n.type === "past" ? [n.thread.threadId] : []));
    await waitFor("two archived threads to leave the view", async () =>
      (await left()).length === 1 ? true : undefined,
    );
    assert.deepEqual(await left(), [ids[2]]);
    assert.equal(hub.threads.readMetadata(ids[0]!).archived, true, "archived in the thread's own file");
    hub.tree.setFilter({ cwds: saved.cwds, origin: "cli", archived: true });
    await waitFor("the archived filter to show them", async () =>
      (await left()).sort().join() === [ids[0], ids[1]].sort().join() ? true : undefined,
    );
    const row = (await groupsOf())
      .flatMap((g) => g.children)
      .find((n) => n.type === "past" && n.thread.threadId === ids[0])!;
    assert.match(hub.tree.getTreeItem(row).description as string, /^archived · /);
  });

  it("'Since you left' lists each thread's changed files below its row, read from its edit ledger", async () => {
    const { hub } = await api();
    hub.tree.setFilter(saved); // this workspace's unarchived threads
    const since = new Date(Date.now() - 1000).toISOString();
    const id = writePastThread(hub.home, 1);
    new ThreadStore(hub.home).patchMetadata(id, { status: "idle" }); // waits for your input
    const file = join(workspaceRoot(), "since-you-left.txt");
    await hub.ledger.ledger.append(id, [
      {
        kind: "change",
        op: "turn-1",
        path: file,
        before: null,
        after: { id: null, size: 3, stored: false },
        via: "fs_write",
      },
    ]);
    const savedAway = hub.tree.away;
    hub.tree.away = since;
    try {
      const row = await waitFor("the thread under 'Since you left'", async () => {
        const away = (await hub.tree.getChildren()).find((n) => n.type === "away");
        return away?.type === "away"
          ? away.children.find((c) => c.type === "past" && c.thread.threadId === id)
          : undefined;
      });
      assert.equal(hub.tree.getTreeItem(row).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
      assert.match(String(hub.tree.getTreeItem(row).description), /· 1 file$/);
      const files = await hub.tree.getChildren(row);
      assert.deepEqual(
        files.map((f) => (f.type === "file" ? f.path : f.type)),
        ["since-you-left.txt"],
      );
      assert.equal(hub.tree.getTreeItem(files[0]!).resourceUri?.fsPath, file);
    } finally {
      hub.tree.away = savedAway;
    }
  });
});
