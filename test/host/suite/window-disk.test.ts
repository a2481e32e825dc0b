import assert from "node:assert/strict";
import * as vscode from "vscode";
import { describeDiskCalls, traceDiskCalls } from "./disk-tracer";
import { EXTENSION_ID, api, spawnIdleFake, useFakeAgent, waitFor, writePastThread } from "./helpers";

/**
 * #35: the extension host's thread never waits on disk. Everyday flows run while every `fs.*Sync` is traced: none
 * may be called by the window's own code (src/vscode/**). The engine modules the window calls in process are listed
 * in the log (the audit's evidence), not failed on here.
 */
/**
 * Engine modules (under src/core/) the window calls on its thread whose file calls in the flows below are
 * asynchronous: no synchronous call may have one of them on its stack. Add a module once its calls are converted.
 */
const CONVERTED = [
  // a session's start looks its agent's command up on PATH off the thread (resolveCommandAsync), not with stats
  "platform/executables.ts",
  // a plain folder's tracker: the manifest cache's load (its baseline) and save (its close). (Not yet
  // edit-ledger.ts: its realpath is async now, but the spawner's first use, a one-time mkdtemp + chmod in
  // platform/spawner-client.ts, runs under the tracker's first git probe, which edit-ledger.ts starts.)
  "ledger/manifest-cache.ts",
  // the panel's changed-files rows read the thread's ledger with fs/promises
  "ledger/ledger-file.ts",
  // a turn recorded in this window shows the thread's review comments (and counts the unsent) off the thread
  "store/review-notes.ts",
];

/**
 * Window modules (under src/vscode/) none of whose engine calls in the flows below is synchronous: the ledger
 * feature's thread folders and titles (the panel's rows, the hover's and the CodeLens' titles) and the panel's rows.
 */
const CONVERTED_CALLERS = ["ledger/ledger-feature.ts", "ledger/panel-changes.ts"];

describe("the window's thread and the disk", () => {
  it("makes no synchronous file call of its own in the everyday flows", async function () {
    this.timeout(120_000);
    await useFakeAgent();
    const { hub, recall } = await api();
    const threadId = writePastThread(hub.home, 3, (i) => (i === 1 ? "the zanzibar quokka" : `answer ${i}`));
    const trace = traceDiskCalls(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath);
    let calls;
    try {
      // the Sessions view: a refresh, its rows and a row's tooltip
      hub.tree.refresh();
      const past = await waitFor("the past thread in the Sessions view", async () => {
        const groups = await hub.tree.getChildren();
        return groups
          .flatMap((g) => (g.type === "group" ? g.children : [g]))
          .find((n) => n.type === "past" && n.thread.threadId === threadId);
      });
      await hub.tree.resolveTreeItem(hub.tree.getTreeItem(past), past);
      // a stored thread's panel
      hub.panels.open(threadId);
      await waitFor("the thread panel", () => hub.panels.rendered(threadId));
      // recall: a search and the recent list
      const found = await recall.search(hub, "zanzibar quokka", { all: false, allTerms: true });
      assert.equal(found.type, "results");
      await recall.search(hub, "", { all: true, allTerms: false });
      // a live session's turn with the scripted agent
      const s = await spawnIdleFake();
      await s.prompt("hello");
      await s.close();
    } finally {
      calls = trace.stop();
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    }
    console.log(`[window-disk] ${calls.length} synchronous file calls from the bundle:\n${describeDiskCalls(calls)}`);
    const own = calls.filter((c) => c.own);
    assert.deepEqual(describeDiskCalls(own), "", "the window's own code called fs.*Sync on the host's thread");
    // engine modules whose calls in these flows went off the thread: none may come back
    const through = (c: { chain: string[] }, m: string) =>
      c.chain.some((f) => f.replace(/\\/g, "/").startsWith(`src/core/${m}:`));
    const converted = calls.filter((c) => CONVERTED.some((m) => through(c, m)));
    assert.equal(
      describeDiskCalls(converted),
      "",
      "an engine module converted to asynchronous file calls made a sync one",
    );
    const callers = calls.filter((c) =>
      CONVERTED_CALLERS.some((m) => c.chain.some((f) => f.replace(/\\/g, "/").startsWith(`src/vscode/${m}:`))),
    );
    assert.equal(
      describeDiskCalls(callers),
      "",
      "a window module converted to asynchronous engine calls made a sync one",
    );
  });
});
