// Issue 35 item 7 in the real extension host: with acpThreads.host.runSessions host, the thread runs in the thread
// host and this window serves its agent's files. The hosted agent reads a file whose editor has unsaved changes and
// gets the buffer's text (the host's own disk read would give the saved text). Its write to that file is asked on
// the panel's card, whose Review opens the edit's diff (approve-reads: reviewable as a window session's write),
// and lands in the open buffer, merged against what it read, and saved (a write to the disk would leave the dirty
// buffer as it was).
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { hostPlace } from "../../../src/core/host/door";
import { fsServer, serveOffer } from "../../../src/vscode/host/serve-fs";
import { PROPOSED_SCHEME } from "../../../src/vscode/proposed-content";
import { api, useFakeAgent, waitFor, workspaceRoot } from "./helpers";
import { cli, detach } from "./host-cli";

/** A workspace file saved as "saved on disk", open in an editor whose buffer holds `text`, unsaved. */
async function unsaved(name: string, text: string): Promise<{ path: string; doc: vscode.TextDocument }> {
  const path = join(workspaceRoot(), name);
  writeFileSync(path, "saved on disk");
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  const ed = await vscode.window.showTextDocument(doc);
  await ed.edit((e) => e.replace(new vscode.Range(0, 0, 0, 13), text));
  assert.ok(doc.isDirty);
  return { path, doc };
}

describe("the thread host's agents served by this window", () => {
  afterEach(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  it("a hosted agent reads an editor's unsaved text and its write lands in the open buffer, asked on the card", async () => {
    await useFakeAgent();
    const { hub } = await api();
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    // the web workbench saves after a delay by default: the buffer must stay unsaved for this test
    const files = vscode.workspace.getConfiguration("files");
    await files.update("autoSave", "off", vscode.ConfigurationTarget.Global);
    const { path, doc } = await unsaved("served-by-window.txt", "typed but not saved");
    try {
      const draft = await vscode.commands.executeCommand<string>("acpThreads.spawn");
      await waitFor("the new thread's panel", () => hub.panels.get(draft));
      // a first turn that runs a while, so the read and the write queue in the same session in the host
      await hub.composer.handle(
        { threadId: draft, post: () => undefined },
        { type: "send", parts: [{ type: "text", text: "sleep 10000" }], agentId: "fake", mode: "session" },
      );
      const row = await waitFor("the thread in the host", () => hub.hosted.rows()[0]);
      assert.equal(hub.live.get(row.threadId), undefined, "no session of it in this window");
      // shown (its webview loads, and follows the host, once visible: the text editor may have the front)
      await vscode.commands.executeCommand("acpThreads.openThread", row.threadId);
      const view = await waitFor("its panel following the host", () =>
        hub.panels.panelOf(row.threadId)?.hosted ? hub.hosted.get(row.threadId) : undefined,
      ).catch((err: Error) => {
        const kinds = hub.threads.read(row.threadId).records.map((r) => JSON.stringify(r).slice(0, 200));
        const log = readFileSync(hostPlace(hub.home).log, "utf8").slice(-2000);
        const p = hub.panels.panelOf(row.threadId);
        throw new Error(
          `${err.message}; panel ${JSON.stringify(p && { hosted: p.hosted })}; rows ${JSON.stringify(hub.hosted.rows())}; records ${kinds.join("\n")}; host log ${log}`,
        );
      });
      const panel = { threadId: row.threadId, post: () => undefined };
      const send = (text: string) => hub.composer.handle(panel, { type: "send", parts: [{ type: "text", text }] });
      await waitFor("the first turn running", () => view.status === "working");
      await send(`read ${path}`);
      await send(`write ${path} written by the hosted agent`);
      assert.equal(hub.composer.queues.list(row.threadId).length, 2, "both queued in the host, for the same session");
      await waitFor(
        "the agent's read of the unsaved buffer",
        () => view.events.some((e) => e.type === "text" && e.text.includes("read: typed but not saved")),
        30_000,
      ).catch((err: Error) => {
        const said = view.events.flatMap((e) => (e.type === "text" ? [e.text] : []));
        throw new Error(`${err.message}; the agent said ${JSON.stringify(said)}`);
      });
      assert.ok(doc.isDirty, "the buffer was still unsaved when the agent read it");
      assert.equal(readFileSync(path, "utf8"), "saved on disk");
      // approve-reads: the write is asked here, on the panel's card, before anything is written
      const card = await waitFor("the write's card", () => hub.broker.pendingFor(row.threadId)[0], 30_000);
      assert.equal(doc.getText(), "typed but not saved", "nothing written before the answer");
      // the card offers Review, which opens the edit's diff (as for a window session's write)
      assert.equal(card.reviewPath, path);
      await hub.broker.review(card.requestId);
      await waitFor("the review's diff editor", () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === PROPOSED_SCHEME),
      );
      assert.ok(hub.broker.answer(card.requestId, "yes"), "what the card's Allow calls");
      await waitFor("the write in the open buffer, saved", () =>
        doc.getText() === "written by the hosted agent" && !doc.isDirty ? true : undefined,
      );
      assert.equal(readFileSync(path, "utf8"), "written by the hosted agent");
      await waitFor("the turn in the host to end (its run stays open)", () => view.status === "idle", 30_000);
      const call = hub.threads.read(row.threadId).records.find((r) => r.kind === "tool_call");
      assert.ok(call && JSON.stringify(call).includes('"diff"'), "the write's diff is in the thread");
    } finally {
      await cfg.update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
      await files.update("autoSave", undefined, vscode.ConfigurationTarget.Global);
      const c = await hub.hosted.link.connection();
      await c?.request({ t: "stop", force: true }).catch(() => undefined);
    }
  });

  it("a `run --detach` from a terminal starts a host whose agent reads at once: it gets this window's unsaved buffer", async () => {
    const { hub } = await api();
    const files = vscode.workspace.getConfiguration("files");
    await files.update("autoSave", "off", vscode.ConfigurationTarget.Global);
    // no host runs: the window is not connected, and the one `run --detach` starts is not its own
    await cli(hub.home, ["host", "stop", "--force"]);
    await waitFor(
      "no host",
      () => (!existsSync(hostPlace(hub.home).socket) && !hub.hosted.link.connected) || undefined,
    );
    const { path, doc } = await unsaved("read-at-start.txt", "unsaved in the window");
    try {
      // the agent's first act is the read: before, the window looked for a host every 2 s (and let one that held
      // nothing go), so the read went to the disk
      const id = await detach(hub.home, [`read ${path}`]);
      await waitFor(
        "the detached run's read",
        () => hub.threads.read(id).records.some((r) => r.kind === "agent_message" && r.text.includes("read: ")),
        30_000,
      );
      const said = hub.threads
        .read(id)
        .records.flatMap((r) => (r.kind === "agent_message" ? [r.text] : []))
        .join("");
      assert.match(said, /read: unsaved in the window/);
      assert.equal(readFileSync(path, "utf8"), "saved on disk");
    } finally {
      await files.update("autoSave", undefined, vscode.ConfigurationTarget.Global);
      await cli(hub.home, ["host", "stop", "--force"]);
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand("workbench.action.files.revert");
      unlinkSync(path);
    }
  });

  it("hostile: what the host asks is checked against this window's folders again: outside them, or through a link out, it is refused", async () => {
    const { hub } = await api();
    const outside = mkdtempSync(join(tmpdir(), "acp-serve-outside-"));
    writeFileSync(join(outside, "secret.txt"), "secret");
    const link = join(workspaceRoot(), "link-out");
    symlinkSync(outside, link);
    try {
      const serve = fsServer(hub.files, serveOffer);
      for (const path of [join(outside, "secret.txt"), join(link, "secret.txt"), join(workspaceRoot(), "..", "x")]) {
        const read = await serve({ kind: "read", path });
        assert.equal("refused" in read && read.code, "path_outside_workspace", `${path}: ${JSON.stringify(read)}`);
      }
      const write = await serve({ kind: "write", path: join(link, "planted.txt"), content: "planted" });
      assert.ok("refused" in write, JSON.stringify(write));
      assert.throws(() => readFileSync(join(outside, "planted.txt")), "nothing written outside");
      // inside: served
      assert.deepEqual(
        await serve({ kind: "read", path: join(workspaceRoot(), "README.md"), range: { line: 1, limit: 1 } }),
        {
          done: true,
          content: "# Sample workspace",
        },
      );
    } finally {
      unlinkSync(link);
    }
  });
});
