// The spawn command end to end against the stdio fake agent (dist-test/fixtures/fake-agents/stdio-agent.main.js):
// streamed answer, an unsaved buffer read by the agent, a permission answered through the prompt with a write
// applied to the open editor, and a terminal/create shown as an integrated terminal.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { RuntimeEvent } from "../../../src/core/model/events";
import { api, repoRoot, terminalScreen, waitFor, workspaceRoot } from "./helpers";
import { sessionOf, type TestSession } from "./session-of";

const agentText = (events: RuntimeEvent[]) =>
  events.map((e) => (e.type === "text" && e.stream === "output" ? e.text : "")).join("");

async function spawnFake(task: string): Promise<TestSession> {
  const { hub } = await api();
  const threadId = await vscode.commands.executeCommand<string>("acpThreads.spawn", {
    agentId: "fake",
    task,
    mode: "session",
    cwd: workspaceRoot(),
  });
  assert.ok(threadId, "the spawn command returned a thread id");
  return await sessionOf(hub, threadId);
}

async function turn(s: TestSession, text: string): Promise<string> {
  const before = s.events.length;
  const done = new Promise<void>((r) => s.onTurnDone(() => r()));
  await s.prompt(text);
  await done;
  return agentText(s.events.slice(before));
}

describe("spawning the stdio fake agent", () => {
  before(async () => {
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
    await vscode.workspace
      .getConfiguration("acpThreads")
      .update("permissionMode", "approve-reads", vscode.ConfigurationTarget.Global);
  });

  it("streams the answer into a live thread with its panel open", async () => {
    const { hub } = await api();
    const s = await spawnFake("stream 5");
    await waitFor("the first turn to end", () => s.status === "idle" || s.status === "failed");
    assert.equal(s.status, "idle", s.statusDetail);
    assert.equal(agentText(s.events), "chunk 0 chunk 1 chunk 2 chunk 3 chunk 4 ");
    assert.ok(hub.panels.get(s.threadId), "the thread panel is open");
    const nodes = await hub.tree.getChildren();
    const live = nodes.find((n) => n.type === "group" && n.id === "live");
    assert.ok(
      live?.type === "group" && live.children.some((c) => c.type === "live" && c.threadId === s.threadId),
      "listed under Live",
    );
    await s.close();
  });

  it("is one id with its stored thread: the id a panel saves reopens the recorded thread after a reload", async () => {
    const { hub } = await api();
    const s = await spawnFake("stream 2");
    await waitFor("the first turn to end", () => s.status === "idle" || s.status === "failed");
    assert.equal(s.status, "idle", s.statusDetail);
    await s.close();
    assert.ok(hub.threads.exists(s.threadId), "the live session's id names its thread file");
    // After a reload no live session is left; the panel's saved id must be enough to show the thread.
    const past = await hub.past.load(s.threadId);
    assert.equal(agentText(past?.events ?? []), "chunk 0 chunk 1 ");
  });

  it("serves an unsaved editor buffer to the agent's fs/read_text_file", async () => {
    const path = join(workspaceRoot(), "README.md");
    const ed = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path));
    await ed.edit((e) => e.insert(new vscode.Position(0, 0), "UNSAVED-MARKER "));
    const s = await spawnFake("");
    await waitFor("the session", () => s.status === "idle");
    const answer = await turn(s, `read ${path}`);
    assert.match(answer, /^read: UNSAVED-MARKER # Sample workspace/);
    await s.close();
    // the session's panel took the focus: revert README.md itself, or later tests meet its unsaved marker
    await vscode.window.showTextDocument(ed.document);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    assert.equal(ed.document.isDirty, false, "README.md is reverted for the tests after this one");
  });

  it("asks permission inline for a write, and the allowed write lands in the open editor and on disk", async () => {
    const { hub } = await api();
    const path = join(workspaceRoot(), "perm.txt");
    writeFileSync(path, "before\n");
    const ed = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path));
    const s = await spawnFake("");
    await waitFor("the session", () => s.status === "idle");
    const answer = turn(s, `write ${path} written-by-agent`);
    const prompt = await waitFor("a pending permission prompt", () => hub.broker.pendingFor(s.threadId)[0]);
    assert.equal(s.status, "waiting_permission");
    assert.deepEqual(
      prompt.options.map((o) => o.name),
      ["Allow", "Always", "Reject", "Always (everywhere)"],
    );
    assert.equal(prompt.reviewPath, path, "a diff review is offered");
    await hub.broker.review(prompt.requestId);
    await waitFor("the diff editor", () =>
      vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff)),
    );
    assert.ok(hub.broker.answer(prompt.requestId, "yes"));
    assert.match(await answer, /wrote/);
    assert.equal(ed.document.getText(), "written-by-agent");
    assert.equal(readFileSync(path, "utf8"), "written-by-agent");
    const decision = s.events.find((e) => e.type === "permission");
    assert.ok(decision?.type === "permission" && decision.decision.decidedBy === "user");
    await s.close();
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("with no panel open, the permission waits and the status-bar command reveals the thread with its prompt", async () => {
    const { hub } = await api();
    const agent = (await (await import("../../../src/vscode/agents")).configuredAgent(hub.config, undefined, "fake"))!
      .spec;
    const s = hub.spawnSession({ agent, task: "", mode: "session", cwd: workspaceRoot(), showPanel: false });
    await waitFor("the session", () => s.status === "idle");
    const answer = turn(s, "ask edit");
    const prompt = await waitFor("a pending prompt", () => hub.broker.pendingFor(s.threadId)[0]);
    assert.equal(hub.panels.get(s.threadId), undefined, "no panel was open");
    await vscode.commands.executeCommand("acpThreads.showPendingPermission");
    await waitFor(
      "the revealed panel to render the user message and the prompt",
      () => (hub.panels.rendered(s.threadId)?.entries ?? 0) >= 2,
    );
    hub.broker.answer(prompt.requestId, "ok");
    assert.match(await answer, /outcome: ok/);
    await s.close();
  });

  it("cancels a running turn from the Cancel action", async () => {
    const s = await spawnFake("");
    await waitFor("the session", () => s.status === "idle");
    const done = new Promise<void>((r) => s.onTurnDone(() => r()));
    void s.prompt("sleep 60000");
    await waitFor("the turn to start", () => s.status === "working");
    await vscode.commands.executeCommand("acpThreads.cancel", { type: "live", threadId: s.threadId });
    await done;
    const end = s.events.filter((e) => e.type === "done").pop();
    assert.ok(end?.type === "done" && end.stopReason === "cancelled", "the turn ended as cancelled");
    await s.close();
  });

  it("shows an agent's terminal/create as an integrated terminal that keeps its output", async () => {
    const s = await spawnFake("");
    await waitFor("the session", () => s.status === "idle");
    const { hub } = await api();
    const answered = turn(s, "terminal echo from-agent-terminal");
    // the agent did not ask first: under approve-reads the engine asks before the command runs
    const prompt = await waitFor("the terminal's permission prompt", () => hub.broker.pendingFor(s.threadId)[0]);
    assert.equal(prompt.title, "echo from-agent-terminal");
    assert.equal(prompt.kind, "execute");
    assert.ok(hub.broker.answer(prompt.requestId, "allow"));
    const answer = await answered;
    assert.match(answer, /exit 0: from-agent-terminal/);
    const term = await waitFor("the agent's terminal", () =>
      vscode.window.terminals.find((t) => t.name.includes("echo from-agent-terminal")),
    );
    assert.match(term.name, /^Fake agent: /);
    await waitFor("the output on the terminal's screen", async () =>
      (await terminalScreen(term)).includes("from-agent-terminal"),
    );
    await s.close();
  });
});
