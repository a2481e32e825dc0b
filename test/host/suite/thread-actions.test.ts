// Context-menu actions on past threads: Rename, Export snapshot → Delete → Import snapshot, and Resume.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { SessionNode } from "../../../src/vscode/sessions-tree";
import { exportSnapshot, importSnapshot } from "../../../src/vscode/thread-snapshots";
import { api, repoRoot, waitFor, workspaceRoot, writePastThread } from "./helpers";

type Past = Extract<SessionNode, { type: "past" }>;

async function pastNode(threadId: string): Promise<Past | undefined> {
  const { hub } = await api();
  for (const g of await hub.tree.getChildren()) {
    if (g.type !== "group") continue;
    const n = g.children.find((c): c is Past => c.type === "past" && c.thread.threadId === threadId);
    if (n) return n;
  }
  return undefined;
}

describe("thread actions", () => {
  it("renames a past thread", async () => {
    const { hub } = await api();
    const id = writePastThread(hub.home, 1);
    hub.threads.rename(id, "renamed thread");
    assert.equal((await pastNode(id))?.thread.title, "renamed thread");
  });

  it("exports a snapshot, deletes the thread to the trash, and imports it back", async () => {
    const { hub } = await api();
    const id = writePastThread(hub.home, 2);
    const file = join(mkdtempSync(join(tmpdir(), "acp-snap-")), "snap.jsonl");
    exportSnapshot(hub.threads, id, file);
    hub.threads.delete(id);
    assert.equal(await pastNode(id), undefined, "gone from the view");
    assert.equal(importSnapshot(hub.threads, file), id);
    assert.ok(await pastNode(id), "back in the view");
    assert.throws(() => importSnapshot(hub.threads, file), /already exists/);
  });

  it("resumes a past thread: its history is shown and the agent answers a new prompt", async () => {
    const { hub } = await api();
    const fake = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");
    await vscode.workspace.getConfiguration("acpThreads").update(
      "agents",
      {
        fake: {
          command: process.execPath,
          args: [fake],
          env: { ELECTRON_RUN_AS_NODE: "1" },
          displayName: "Fake agent",
        },
      },
      vscode.ConfigurationTarget.Global,
    );
    const first = hub.live.get(
      (await vscode.commands.executeCommand<string>("acpThreads.spawn", {
        agentId: "fake",
        task: "stream 2",
        mode: "run",
        cwd: workspaceRoot(),
      }))!,
    )!;
    await waitFor("the run to finish", () => first.status === "closed" || first.status === "failed");
    const storeId = first.threadId;
    assert.ok(hub.threads.exists(storeId));
    const node = { type: "past" as const, thread: { ...(await hub.past.load(storeId))!, events: undefined } };
    await vscode.commands.executeCommand("acpThreads.resume", node);
    const resumed = await waitFor("the resumed session", () =>
      hub.live.all().find((s) => s !== first && s.threadId === storeId && s.status === "idle"),
    );
    assert.ok(
      resumed.events.some((e) => e.type === "text" && e.text.includes("chunk 1")),
      "history shown first",
    );
    assert.ok(hub.panels.get(storeId), "the resumed session's panel is the thread's panel");
    const done = new Promise<void>((r) => resumed.onTurnDone(() => r()));
    await resumed.prompt("hello again");
    await done;
    assert.ok(resumed.events.some((e) => e.type === "text" && e.text.includes("echo: hello again")));
    const { records } = hub.threads.read(storeId);
    assert.ok(
      records.some((r) => r.kind === "user_message" && r.text === "hello again"),
      "the new turn is recorded in the same thread",
    );
    await resumed.close();
  });
});
