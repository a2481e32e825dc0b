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
  // a session's start: whether the command is a Node script, its package's engines (stop 53)
  "runtime/node-launch.ts",
  "runtime/node-package.ts",
  // the spawner's socket directory and sockets (stop 53)
  "platform/spawner-client.ts",
  // the steering inbox, polled for as long as a session lives (stop 53)
  "session/steer-inbox.ts",
  // a thread's close: the lock's look and removal off the thread (stop 53; its fsync too, but jsonl-writer.ts still
  // writes each record batch with writeSync, so that module cannot be listed yet)
  "platform/file-lock-io.ts",
];

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
  });
});
