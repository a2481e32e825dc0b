// Context-menu actions on past threads: Rename, Export snapshot → Delete → Import snapshot, and Resume; Stop session
// on a live one.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { SessionNode } from "../../../src/vscode/sessions-tree";
import { listSnapshots, readSnapshot } from "../../../src/core/snapshot/load";
import { readLock } from "../../../src/core/store/file-lock";
import { defaultExportDir } from "../../../src/vscode/export-folder";
import { api, repoRoot, spawnIdleFake, useFakeAgent, waitFor, workspaceRoot, writePastThread } from "./helpers";

type Past = Extract<SessionNode, { type: "past" }>;

/** The row of a thread written a moment ago, once the view's catalog has seen its file. */
const shownRow = (threadId: string): Promise<Past> => waitFor("the past thread in the view", () => pastNode(threadId));

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
    assert.equal((await shownRow(id)).thread.title, "renamed thread");
  });

  it("exports a snapshot in the CLI's saved_session format, and imports it back as a new thread", async () => {
    const { hub } = await api();
    const id = writePastThread(hub.home, 2);
    const dir = join(mkdtempSync(join(tmpdir(), "acp-snap-")), ".acp-threads");
    const dest = vscode.Uri.file(join(dir, "saved_session_host_fake_default_20260101T000000Z.json"));
    const path = await vscode.commands.executeCommand<string>("acpThreads.exportSnapshot", await shownRow(id), dest);
    assert.equal(path, dest.fsPath);
    // The core reader and the CLI's listing read it: format 1.0, the conversation as messages, private file.
    const snap = readSnapshot(path);
    assert.deepEqual(
      snap.state.messages.map((m) => [m.role, m.content]),
      [
        ["user", "question 0"],
        ["assistant", "**answer** 0"],
        ["user", "question 1"],
        ["assistant", "**answer** 1"],
      ],
    );
    const [listed] = listSnapshots(dir);
    assert.deepEqual([listed?.path, listed?.messageCount, listed?.error], [path, 4, undefined]);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    hub.threads.delete(id);
    assert.equal(await pastNode(id), undefined, "gone from the view");
    const restored = await vscode.commands.executeCommand<string>("acpThreads.importSnapshot", vscode.Uri.file(path));
    assert.ok(restored && restored !== id, "restored as a new thread");
    const node = await waitFor("the restored thread in the view", () => pastNode(restored));
    assert.equal(node.thread.title, "past thread with 2 exchanges");
    const users = hub.threads.read(restored).records.flatMap((r) => (r.kind === "user_message" ? [r.text] : []));
    assert.deepEqual(users, ["question 0", "question 1"]);
  });

  it("exports start in the user's Downloads folder, else their home folder, never the repository (#37)", async () => {
    const { hub } = await api();
    const home = mkdtempSync(join(tmpdir(), "acp-home-"));
    const folder = async (home: string) => (await hub.engine.call({ op: "export.folder", home })).dir;
    assert.equal(await folder(home), home, "no Downloads folder: the home folder");
    mkdirSync(join(home, "Downloads"));
    assert.equal(await folder(home), join(home, "Downloads"));
    const dir = await defaultExportDir(hub.engine);
    assert.ok(!dir.startsWith(workspaceRoot()), `${dir} is outside the workspace`);
    assert.ok(dir === homedir() || dir === join(homedir(), "Downloads"), dir);
  });

  it("exports a thread as Markdown from the Sessions view and by id (the panel's action)", async () => {
    const { hub } = await api();
    const id = writePastThread(hub.home, 2);
    const dir = mkdtempSync(join(tmpdir(), "acp-md-"));
    const dest = vscode.Uri.file(join(dir, "thread.md"));
    const path = await vscode.commands.executeCommand<string>("acpThreads.exportMarkdown", await shownRow(id), dest);
    assert.equal(path, dest.fsPath);
    const md = readFileSync(path, "utf8");
    assert.match(md, /^# past thread with 2 exchanges\n/);
    assert.match(md, /\| Agent \| Fake agent \(`fake`\) \|/);
    assert.match(
      md,
      /### You · \d{2}:\d{2} UTC\n\nquestion 0\n\n### Fake agent · \d{2}:\d{2} UTC\n\n\*\*answer\*\* 0\n/,
    );
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const byId = vscode.Uri.file(join(dir, "by-id.md"));
    assert.equal(await vscode.commands.executeCommand<string>("acpThreads.exportMarkdown", id, byId), byId.fsPath);
    assert.equal(readFileSync(byId.fsPath, "utf8"), md);
  });

  it("imports a thread file (.jsonl) through the store: a torn last line is cut, never copied", async () => {
    const { hub } = await api();
    const id = writePastThread(hub.home, 1);
    const file = join(mkdtempSync(join(tmpdir(), "acp-jsonl-")), `${id}.jsonl`);
    writeFileSync(
      file,
      readFileSync(hub.threads.pathFor(id), "utf8") + '{"v":1,"ts":"2026-01-01T00:00:00Z","kind":"torn-tail-marker',
    );
    hub.threads.delete(id);
    assert.equal(await vscode.commands.executeCommand<string>("acpThreads.importSnapshot", vscode.Uri.file(file)), id);
    const stored = readFileSync(hub.threads.pathFor(id), "utf8");
    assert.ok(stored.endsWith("\n") && !stored.includes("torn-tail-marker"), "the torn tail stays out of the thread");
    assert.deepEqual(hub.threads.read(id).warnings, []);
    assert.equal(
      await vscode.commands.executeCommand("acpThreads.importSnapshot", vscode.Uri.file(file)),
      undefined,
      "an existing thread is never overwritten (the error is shown)",
    );
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

  it("Stop session stops the agent mid-turn, releases the thread and lists it with the past ones", async () => {
    const { hub } = await api();
    await useFakeAgent();
    const s = await spawnIdleFake();
    const file = hub.threads.pathFor(s.threadId);
    // readLock, not liveWriter: this bundle's copy of file-lock does not know the extension's held tokens
    assert.equal(readLock(file)?.pid, process.pid, "this window holds the thread");
    void s.prompt("tool"); // a tool call that waits for a cancel
    await waitFor("the turn to run", () => s.status === "working");
    hub.panels.open(s.threadId);
    assert.equal((await hub.ops.view(s.threadId)).live, true, "the panel offers Stop session");
    await vscode.commands.executeCommand("acpThreads.stopSession", { type: "live", threadId: s.threadId });
    assert.equal(hub.live.get(s.threadId), undefined, "no longer live");
    assert.equal(s.isOpen, false);
    assert.equal(readLock(file), undefined, "the lock is released: another window or the CLI can take it");
    assert.ok(await pastNode(s.threadId), "listed with the past threads");
    const { records, metadata } = hub.threads.read(s.threadId);
    assert.equal(metadata.status, "idle");
    assert.equal(records.filter((r) => r.kind === "turn_end").at(-1)?.stopReason, "cancelled");
    assert.ok(hub.panels.get(s.threadId), "its panel stays open, showing the stored thread");
    assert.equal((await hub.ops.view(s.threadId)).live, false, "no Stop button any more");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("the panel's Stop session button stops an idle session", async () => {
    const { hub } = await api();
    const s = await spawnIdleFake();
    await hub.ops.handle(s.threadId, { type: "ops", action: "stop" });
    assert.equal(hub.live.get(s.threadId), undefined);
    assert.equal(readLock(hub.threads.pathFor(s.threadId)), undefined);
    assert.equal(hub.threads.read(s.threadId).metadata.status, "idle");
  });

  it("Copy message says 'Message copied' (a code block's copy says 'Code copied'; #37)", async () => {
    const { hub } = await api();
    await vscode.env.clipboard.writeText("");
    assert.equal(await hub.panels.code.copy("the whole answer", "message"), "Message copied");
    assert.equal(await vscode.env.clipboard.readText(), "the whole answer");
    assert.equal(await hub.panels.code.copy("x = 1"), "Code copied");
    assert.equal(await vscode.env.clipboard.readText(), "x = 1");
  });
});
