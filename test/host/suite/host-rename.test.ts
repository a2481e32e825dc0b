// Issue 35, metadata writes to a thread the thread host holds, in the real extension host: a thread that
// `acp-threads run --detach` runs mid-turn is renamed from the Sessions view's hosted row (acpThreads.rename, the
// panel's title edit writes the same way). The host writes it through its run's handle: the tab, the Sessions row
// and the thread file agree; a rename by another client (the CLI) retitles the panel too. Before, the window wrote
// it with its own store and the host's lock refused it ("already being written by process N").
import assert from "node:assert/strict";
import * as vscode from "vscode";
import type { SessionNode } from "../../../src/vscode/sessions-tree";
import { api, waitFor } from "./helpers";
import { cli, detach } from "./host-cli";

describe("renaming a thread the thread host runs (#35)", () => {
  afterEach(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  it("a hosted thread renamed mid-turn: the host writes it; the tab, the Sessions row and the file agree", async () => {
    const { hub } = await api();
    const id = await detach(hub.home, ["sleep 60000"]);
    try {
      const node = await waitFor("the hosted row", async () =>
        (await hub.tree.getChildren())
          .flatMap((g): SessionNode[] => (g.type === "group" ? g.children : [g]))
          .find((n) => n.type === "hosted" && n.threadId === id),
      );
      await vscode.commands.executeCommand("acpThreads.openThread", id);
      const view = await waitFor("the panel's view", () => hub.hosted.get(id));
      await waitFor("the turn running", () => view.events.some((e) => e.type === "text" && /sleeping/.test(e.text)));

      await vscode.commands.executeCommand("acpThreads.rename", node, "Renamed while hosted");

      const stored = hub.threads.read(id);
      assert.equal(stored.metadata.title, "Renamed while hosted", "the file holds the title");
      assert.equal(stored.metadata.titleByUser, true);
      assert.equal(
        stored.records.filter((r) => r.kind === "meta_patch" && r.patch.title === "Renamed while hosted").length,
        1,
        "one record, written once",
      );
      const panel = hub.panels.panelOf(id);
      assert.equal(panel?.panel.title, "Renamed while hosted", "the tab");
      await waitFor("the header", () => panel?.shown.title === "Renamed while hosted");
      await waitFor("the Sessions row", async () => {
        const row = (await hub.tree.getChildren())
          .flatMap((g): SessionNode[] => (g.type === "group" ? g.children : [g]))
          .find((n) => n.type === "hosted" && n.threadId === id);
        return row && hub.tree.getTreeItem(row).label === "Renamed while hosted";
      });
      // another client renames it (a terminal's `acp-threads threads rename`): the host writes it, this window's
      // tab and header follow the record (before, a hosted panel read its title once, at init)
      const byCli = await cli(hub.home, ["threads", "rename", id, "Renamed", "by", "the", "CLI"]);
      assert.equal(byCli.code, 0, byCli.stderr);
      assert.equal(hub.threads.read(id).metadata.title, "Renamed by the CLI");
      await waitFor("the tab follows", () => panel?.panel.title === "Renamed by the CLI");
      assert.equal(panel?.shown.title, "Renamed by the CLI", "the header");
      assert.ok(
        hub.hosted.rows().some((r) => r.threadId === id),
        "the host still runs the thread",
      );
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });
});
