// #24 item 6 in the real extension host: "ACP Threads: Clear data…" is contributed, its preview sizes each
// category of the extension's data home, and clearing one category leaves the others (the tree still lists the
// past thread, read from the thread catalog).
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { clearDataChoices, clearedMessage } from "../../../src/vscode/clear-data";
import { api, waitFor, writePastThread } from "./helpers";

describe("retention", () => {
  it("previews the data home's sizes per category and clears only what is picked", async () => {
    const { hub } = await api();
    assert.ok((await vscode.commands.getCommands(true)).includes("acpThreads.clearData"));
    const threadId = writePastThread(hub.home, 2);
    const traffic = join(hub.layout.trafficDir, `${threadId}.ndjson`);
    mkdirSync(hub.layout.trafficDir, { recursive: true });
    writeFileSync(traffic, "x".repeat(4096) + "\n");
    const choices = await clearDataChoices(hub.engine, hub.config.trafficMaxTotalMB);
    const byCategory = new Map(choices.map((c) => [c.category, c]));
    assert.ok(byCategory.get("threads")!.bytes > 0, "threads are measured");
    assert.ok(byCategory.get("traffic")!.bytes >= 4097, "traffic is measured");
    assert.match(byCategory.get("traffic")!.description!, /KB · \d+ files?/);
    await hub.engine.call({ op: "retention.clear", categories: ["traffic"] });
    const after = new Map((await clearDataChoices(hub.engine, 512)).map((c) => [c.category, c]));
    assert.equal(after.has("traffic"), false, "no traffic left to clear");
    hub.tree.refresh();
    await waitFor("the past thread to stay listed", async () => {
      const groups = await hub.tree.getChildren();
      return groups.some(
        (g) => g.type === "group" && g.children.some((c) => c.type === "past" && c.thread.threadId === threadId),
      );
    });
  });

  it("Clear data's result says why it freed less than the confirmation showed (#37)", () => {
    assert.equal(clearedMessage(1024, 1024, 0, 0), "Cleared 1.0 KB of ACP Threads data.");
    assert.equal(
      clearedMessage(54_000, 340_000, 2, 0),
      "Cleared 52.7 KB of the 332.0 KB shown: 2 threads a running session holds stayed, with their files.",
    );
    assert.equal(
      clearedMessage(10, 20, 0, 1),
      "Cleared 10 B of the 20 B shown: 1 item could not be removed (in use?).",
    );
  });
});
