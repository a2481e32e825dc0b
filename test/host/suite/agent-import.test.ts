// #36 item 1 in the real extension host: "Import sessions from agent…" turns the sessions the agent lists for this
// folder (made in its own CLI or another editor) into threads of the Sessions view; a second import adds nothing;
// Resume continues the agent's own session (session/load of its id). With acpThreads.history.importAgentSessions
// "always", an agent that starts imports its new sessions by itself.
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ImportSummary } from "../../../src/core/import/agent-import";
import { agentActionItems, agentFacts } from "../../../src/vscode/agent-actions";
import { historySession } from "../../fixtures/fake-agents/history-script";
import { api, repoRoot, spawnIdleFake, useFakeAgent, waitFor, workspaceRoot } from "./helpers";

const HISTORY = () => join(workspaceRoot(), ".agent-import-history.json");

async function historyAgent(id: string): Promise<void> {
  const fake = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");
  const cfg = vscode.workspace.getConfiguration("acpThreads");
  const agents = cfg.get<Record<string, unknown>>("agents") ?? {};
  const env = { ELECTRON_RUN_AS_NODE: "1", FAKE_AGENT_HISTORY: HISTORY() };
  await cfg.update(
    "agents",
    { ...agents, [id]: { command: process.execPath, args: [fake], env, displayName: `History ${id}` } },
    vscode.ConfigurationTarget.Global,
  );
}

describe("importing an agent's own sessions (#36)", () => {
  before(useFakeAgent);
  after(() => rmSync(HISTORY(), { force: true }));

  it("the command imports the folder's sessions into the Sessions view, a second run adds nothing, Resume loads the agent's session", async () => {
    const { hub } = await api();
    const ws = workspaceRoot();
    const now = Date.now();
    writeFileSync(
      HISTORY(),
      JSON.stringify({
        sessions: [
          historySession("h1", ws, 2, new Date(now - 60_000).toISOString(), { title: "imported one" }),
          historySession("h2", ws, 1, new Date(now - 30_000).toISOString(), { title: "imported two" }),
          historySession("h3", "/elsewhere", 1, new Date(now).toISOString(), { title: "not this folder" }),
        ],
      }),
    );
    await historyAgent("fake-history");
    const first = await vscode.commands.executeCommand<ImportSummary>("acpThreads.importAgentSessions", "fake-history");
    assert.deepEqual([first.listed, first.imported, first.failed], [2, 2, 0], JSON.stringify(first));
    const titles = async () =>
      (await hub.tree.getChildren())
        .flatMap((g) => (g.type === "group" ? g.children : []))
        .flatMap((c) => (c.type === "past" ? [c.thread.title] : []));
    await waitFor("the imported threads in the Sessions view", async () => {
      const t = await titles();
      return t.includes("imported one") && t.includes("imported two");
    });
    assert.ok(!(await titles()).includes("not this folder"));

    const again = await vscode.commands.executeCommand<ImportSummary>("acpThreads.importAgentSessions", "fake-history");
    assert.deepEqual([again.imported, again.updated, again.unchanged], [0, 0, 2]);

    // Doctor's row of an agent whose initialize says it lists and loads: "Import its sessions" (scripted pick)
    assert.equal(
      await vscode.commands.executeCommand("acpThreads.doctor", "fake-history", "importSessions"),
      "importSessions",
    );
    const imported = hub.threads
      .list()
      .filter((m) => m.origin?.kind === "agent-import" && m.agent.id === "fake-history");
    assert.equal(imported.length, 2, "nothing added by the Doctor row's import either");
    const plain = await agentFacts(hub, "fake", "Fake agent", true);
    assert.ok(!agentActionItems(plain).some((i) => i.action === "importSessions"), "no probe, no import row");

    const h1 = first.sessions.find((s) => s.sessionId === "h1")!;
    assert.equal(hub.threads.read(h1.threadId!).metadata.origin?.kind, "agent-import");
    await vscode.commands.executeCommand("acpThreads.resume", h1.threadId);
    const live = await waitFor("the resumed session", () => {
      const s = hub.live.get(h1.threadId!);
      return s?.status === "idle" && s.thread ? s : undefined;
    });
    assert.equal(live.sessionId, "h1", "Resume loaded the agent's own session");
    await live.close();
  });

  it("'always': an agent that starts imports its new sessions of this folder by itself", async () => {
    const { hub } = await api();
    const ws = workspaceRoot();
    writeFileSync(
      HISTORY(),
      JSON.stringify({
        sessions: [historySession("auto1", ws, 1, new Date().toISOString(), { title: "came in by itself" })],
      }),
    );
    await historyAgent("fake-auto");
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("history.importAgentSessions", "always", vscode.ConfigurationTarget.Global);
    try {
      const s = await spawnIdleFake("", "fake-auto");
      const found = await waitFor("the session imported on start", () =>
        hub.threads.list().find((m) => m.agentSessionId === "auto1" && m.origin?.kind === "agent-import"),
      );
      assert.equal(found.title, "came in by itself");
      await s.close();
    } finally {
      await cfg.update("history.importAgentSessions", undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("'ask': the first start of an agent with sessions we do not have asks once; the next start does not", async () => {
    const { hub } = await api();
    const ws = workspaceRoot();
    writeFileSync(
      HISTORY(),
      JSON.stringify({ sessions: [historySession("ask1", ws, 1, new Date().toISOString(), { title: "ask me" })] }),
    );
    await historyAgent("fake-ask");
    const seen = hub.broker.notifier.shown;
    const asked = () =>
      hub.broker.notifier
        .since(seen)
        .filter((n) => n.message.includes("History fake-ask has 1 session of this folder"));
    const first = await spawnIdleFake("", "fake-ask");
    const notice = await waitFor("the question", () => asked()[0]);
    assert.deepEqual(notice.items, ["Import", "Always", "Not now"]);
    assert.ok(!hub.threads.list().some((m) => m.agentSessionId === "ask1"), "nothing imported before the answer");
    const second = await spawnIdleFake("", "fake-ask");
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(asked().length, 1, "asked once per agent per workspace");
    await first.close();
    await second.close();
  });
});
