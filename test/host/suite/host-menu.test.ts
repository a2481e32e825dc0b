// Issue 35 (host parity items 7 and 8) in the real extension host: the Sessions view's row of a thread the thread host
// runs has the menu a live row has, less what the host holds (Restore; Rename and Hand off's link go through the
// host's patch request, hosted-rename.ts; Stop through its stop_thread): an inline Cancel
// while a turn runs, which cancels the host's turn; Open, Copy session id and Export Markdown work on it. And a
// hosted turn that changed a file shows its "files changed" row in the open panel and goes under inline review,
// without reopening the panel, as a turn of the window's own does.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { api, waitFor, workspaceRoot } from "./helpers";
import { cli, detach, hostedNode } from "./host-cli";
import { offeredOn } from "./menus";

/** The hosted row's tree item once `ok` holds for it. */
async function hostedItem(threadId: string, what: string, ok: (item: vscode.TreeItem) => boolean) {
  const { hub } = await api();
  return await waitFor(what, async () => {
    const n = await hostedNode(threadId);
    const item = n && (await hub.tree.getTreeItem(n));
    return item && ok(item) ? { node: n, item } : undefined;
  });
}

const stopReasons = (threadId: string, read: (id: string) => { records: readonly { kind: string }[] }) =>
  read(threadId).records.flatMap((r) => (r.kind === "turn_end" ? [(r as { stopReason?: string }).stopReason] : []));

describe("the Sessions view's row of a thread the host runs", () => {
  afterEach(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  it("offers Cancel while its turn runs, and Cancel cancels the host's turn; what the host holds is not offered", async () => {
    const { hub } = await api();
    const id = await detach(hub.home, ["sleep 60000"]);
    try {
      const { node, item } = await hostedItem(id, "the working row", (i) => i.contextValue !== undefined);
      const on = (command: string) => offeredOn(command)(item.contextValue);
      assert.ok(on("acpThreads.cancel"), `Cancel offered on the working row (${item.contextValue})`);
      const offered = ["openThread", "rename", "exportMarkdown", "copySessionId", "reviewThread", "saveBugBundle"];
      // Hand off: the host lists the new thread in the one it holds (its patch request, hosted-rename.ts)
      offered.push("handoff");
      // Stop ends the host's run on the thread (stop_thread)
      for (const c of [...offered, "stopSession"]) assert.ok(on(`acpThreads.${c}`), `${c} offered`);
      // the host holds the thread: no write to it from here but the host's rename
      for (const c of ["restoreTurn", "resume", "delete"]) assert.ok(!on(`acpThreads.${c}`), `${c} not offered`);
      await waitFor("the agent sleeping", () => hub.threads.read(id).records.some((r) => r.kind === "agent_message"));
      await vscode.commands.executeCommand("acpThreads.cancel", node);
      await waitFor("the host's turn cancelled", () => stopReasons(id, (t) => hub.threads.read(t)).length > 0, 20_000);
      assert.deepEqual(
        stopReasons(id, (t) => hub.threads.read(t)),
        ["cancelled"],
      );
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });

  it("Open, Copy session id and Export Markdown work on a hosted row", async () => {
    const { hub } = await api();
    const id = await detach(hub.home, ["sleep 60000"]);
    try {
      const { node } = await hostedItem(id, "the hosted row", () => true);
      await vscode.commands.executeCommand("acpThreads.openThread", node);
      await waitFor("its panel, following the host", () => hub.panels.panelOf(id)?.hosted);
      const sessionId = await waitFor(
        "the host's agent's session",
        () => hub.threads.read(id).metadata.agentSessionId ?? undefined,
      );
      await vscode.env.clipboard.writeText("");
      await vscode.commands.executeCommand("acpThreads.copySessionId", node);
      assert.equal(await vscode.env.clipboard.readText(), sessionId);
      const dest = vscode.Uri.file(join(workspaceRoot(), "..", `hosted-${id}.md`));
      await vscode.commands.executeCommand("acpThreads.exportMarkdown", node, dest);
      assert.ok(existsSync(dest.fsPath), "exported");
      assert.match(readFileSync(dest.fsPath, "utf8"), /sleep 60000/);
      // the run ends before the host is stopped (a host stopped under a followed run is another matter)
      await vscode.commands.executeCommand("acpThreads.cancel", node);
      await waitFor("the run in the host to end", () => !hub.hosted.rows().some((r) => r.threadId === id), 20_000);
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });

  it("a hosted turn that changed a file shows its changed-files row in the open panel, without reopening it", async () => {
    const { hub } = await api();
    const out = join(workspaceRoot(), "hosted-changed.txt");
    const heard: string[] = [];
    const sub = (await api()).onThreadEvent((e) => heard.push(`${e.threadId.slice(-4)}:${e.kind}`));
    const id = await detach(hub.home, ["--permission", "approve-all", "sleep 3000", `write ${out} from the host`]);
    try {
      // looked for at once: how soon the window finds a new host by itself is not this test's subject (see
      // docs/stop-36/hosted-menu.md: after a host was stopped it sometimes took longer than this run)
      await waitFor("the thread in the host", async () => {
        await hub.hosted.link.check();
        return hub.hosted.rows().find((r) => r.threadId === id);
      }).catch(async (err: Error) => {
        const st = await cli(hub.home, ["host", "status", "--format", "json"]);
        throw new Error(
          `${err.message}; connected ${hub.hosted.link.connected}; sessions ${JSON.stringify(hub.hosted.link.sessions)}; host: ${st.stdout} ${st.stderr}`,
        );
      });
      await vscode.commands.executeCommand("acpThreads.openThread", id);
      const view = await waitFor("the panel's view", () => hub.hosted.get(id));
      const panel = hub.panels.panelOf(id)!;
      assert.deepEqual(panel.shown.changed, [], "nothing changed yet");
      await waitFor("the file written in the host", () => existsSync(out), 20_000);
      await waitFor("the run in the host to end", () => view.ended, 30_000);
      // the panel was not drawn again: its rows came from the host's turn end
      await waitFor("the turn's changed-files row in the panel", () =>
        panel.shown.changed.includes("hosted-changed.txt"),
      ).catch(async (err: Error) => {
        throw new Error(
          `${err.message}; heard ${heard.join(" ")} (${id}); same panel ${hub.panels.panelOf(id) === panel}; shown ${JSON.stringify(panel.shown.changed)}; ledger ${JSON.stringify(await hub.ledger.turnChanges(id))}; records ${hub.threads
            .read(id)
            .records.map((r) => r.kind)
            .join(",")}`,
        );
      });
      assert.equal(hub.panels.panelOf(id), panel, "the same panel");
      assert.ok(hub.ledger.inline.watched.has(id), "its changes under inline review");
    } finally {
      sub.dispose();
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });
});
