// "Show protocol log" (#24): the session's protocol traffic opens as a read-only document read from its traffic
// file (redacted, written off the host's thread); the Output channel carries the traffic only at Trace level.
// "Save bug bundle" (#13) saves that traffic with the thread's records, through the window's engine (bundle.save).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { api, spawnIdleFake, useFakeAgent, waitFor } from "./helpers";
import { trafficWritten } from "./session-of";

describe("Show protocol log", () => {
  before(useFakeAgent);

  it("opens the session's recorded traffic, both directions, as a read-only document", async () => {
    const s = await spawnIdleFake("stream 2");
    await waitFor("the first turn to end", () => s.status === "idle" && s.lastPrompt);
    const doc = await waitFor("the traffic document with the turn", async () => {
      await vscode.commands.executeCommand("acpThreads.showProtocolLog", { type: "live", threadId: s.threadId });
      const d = vscode.window.activeTextEditor?.document;
      return d?.getText().includes("chunk 1") ? d : undefined;
    });
    assert.equal(doc.uri.scheme, "acp-threads-traffic", "a content provider's document: read-only in the editor");
    assert.ok(doc.uri.path.endsWith(`${s.threadId}.ndjson`), doc.uri.path);
    const text = doc.getText();
    for (const want of ['"method":"initialize"', '"method":"session/new"', '"method":"session/prompt"'])
      assert.ok(text.includes(want), `the traffic holds ${want}`);
    assert.ok(text.includes('"d":"send"') && text.includes('"d":"recv"'), "both directions");
    // shown again after another turn: read from the file again
    const done = new Promise<void>((r) => s.onTurnDone(() => r()));
    await s.prompt("stream 3");
    await done;
    await waitFor("the second turn in the document", async () => {
      await vscode.commands.executeCommand("acpThreads.showProtocolLog", s.threadId);
      return vscode.window.activeTextEditor?.document.getText().includes("chunk 2");
    });
    await s.close();
  });

  it("Save bug bundle writes the thread's traffic and records, 0600, the workspace path replaced", async () => {
    const s = await spawnIdleFake("stream 2");
    await waitFor("the first turn to end", () => s.status === "idle" && s.lastPrompt);
    await trafficWritten((await api()).hub, s, '"method":"session/prompt"');
    const dir = mkdtempSync(join(tmpdir(), "acp-threads-bundle-"));
    try {
      const path = join(dir, "bug.json");
      const saved = await vscode.commands.executeCommand<string>("acpThreads.saveBugBundle", s.threadId, { path });
      assert.equal(saved, path);
      assert.equal(statSync(path).mode & 0o777, 0o600);
      const text = readFileSync(path, "utf8");
      const bundle = JSON.parse(text) as { thread: { threadId: string }; traffic: { m?: { method?: string } }[] };
      assert.equal(bundle.thread.threadId, s.threadId);
      assert.ok(
        bundle.traffic.some((e) => e.m?.method === "session/prompt"),
        "the turn's traffic",
      );
      assert.ok(!text.includes(s.cwd) && text.includes("${WORKSPACE}"), "the workspace path replaced");
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await s.close();
    }
  });

  it("without recorded traffic it shows the channel instead of a document", async () => {
    const { hub } = await api();
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await vscode.commands.executeCommand("acpThreads.showProtocolLog", "no-such-thread");
    assert.equal(vscode.window.activeTextEditor, undefined, "no document opened");
    assert.ok(hub.log.channel, "the channel is there to show");
  });
});
