import assert from "node:assert/strict";
import * as vscode from "vscode";
import { api, waitFor, writePastThread } from "./helpers";

describe("the recall panel", () => {
  it("finds a past thread by a word in its answers, with a highlighted evidence window", async () => {
    const { hub, recall } = await api();
    const threadId = writePastThread(hub.home, 5, (i) =>
      i === 3 ? "the flux capacitor needs 1.21 gigawatts" : `answer ${i}`,
    );
    const r = await recall.search(hub, "capacitor gigawatts", { all: false, allTerms: true });
    assert.equal(r.type, "results");
    if (r.type !== "results") return;
    assert.equal(r.result.status, "ok");
    const hit = r.result.sessions.find((s) => s.path.endsWith(`${threadId}.jsonl`));
    assert.ok(hit, "the thread is among the results");
    const msg = hit.windows.flatMap((w) => w.messages).find((m) => m.hit);
    assert.match(msg?.text ?? "", /flux capacitor/);
    await recall.open(hub, hit.source, hit.path, msg?.line ?? null);
    const rendered = await waitFor("the thread panel", () => hub.panels.rendered(threadId));
    assert.equal(rendered.entries, 15);
  });

  it("shows recent sessions for an empty query", async () => {
    const { hub, recall } = await api();
    const r = await recall.search(hub, "", { all: true, allTerms: false });
    assert.equal(r.type, "recent");
    assert.ok(r.type === "recent" && r.result.sessions.length > 0);
  });

  it("is in the ACP Threads container", async () => {
    await vscode.commands.executeCommand("acpThreads.searchRecall");
  });
});
