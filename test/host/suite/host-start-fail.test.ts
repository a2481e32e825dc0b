// Issue 35 item 7, step 3, in the real extension host: a thread whose run in the thread host cannot start its agent
// (here one that exits during initialize) is a failed thread of the window, as a window session's failed start is:
// its Sessions row with the failed icon, its panel saying why in the words a window session says it, until Stop
// session dismisses it. Before, the spawn command failed with an error notification and nothing was left to see
// (the host's run ended before its thread opened). A stored thread continued in the host whose agent does not start
// shows why in its panel with its conversation kept; its next run, the agent fixed, takes the failed one's place.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { api, hoveredRow, spawnIdleFake, tipText, useFakeAgent, waitFor, workspaceRoot } from "./helpers";
import { cli, hostedNode, ranInHost, sendIn } from "./host-cli";
import { sessionOf } from "./session-of";

const cfg = () => vscode.workspace.getConfiguration("acpThreads");

/** The configured agents with `id` as one that exits during initialize (`/bin/true`). */
async function breakAgent(id: string, displayName: string): Promise<void> {
  const agents = { ...(cfg().get<Record<string, unknown>>("agents") ?? {}) };
  agents[id] = { command: "/bin/true", displayName };
  await cfg().update("agents", agents, vscode.ConfigurationTarget.Global);
}

const spawnBroken = (task: string) =>
  vscode.commands.executeCommand<string>("acpThreads.spawn", {
    agentId: "broken",
    task,
    mode: "session",
    cwd: workspaceRoot(),
  });

/** What thread `id`'s panel shows once drawn failed. */
async function failedPanel(id: string) {
  const { hub } = await api();
  return await waitFor("the panel drawn failed", () => {
    const shown = hub.panels.panelOf(id)?.shown;
    return shown?.status === "failed" && shown.detail ? shown : undefined;
  });
}

describe("a thread whose agent does not start in the thread host (#35)", () => {
  const runSessions = (v: "window" | "host") => cfg().update("host.runSessions", v, vscode.ConfigurationTarget.Global);

  before(async () => {
    await useFakeAgent();
    await breakAgent("broken", "Broken agent");
  });
  after(async () => {
    await runSessions("window");
    await useFakeAgent();
  });
  afterEach(async () => {
    await runSessions("window");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const { hub } = await api();
    await cli(hub.home, ["host", "stop", "--force"]);
  });

  it("is a failed row and a panel saying why, as a window session's failed start; Stop session dismisses it", async () => {
    const { hub } = await api();
    // the window's own start of it first: the words its session shows
    const mine = await sessionOf(hub, await spawnBroken("never runs here"));
    await waitFor("the window's start to fail", () => mine.status === "failed");
    const words = mine.statusDetail ?? "";
    assert.match(words, /exited during initialize/);
    await mine.close();

    await runSessions("host");
    const id = await spawnBroken("never runs there");
    assert.ok(id, "the spawn command gives the failed thread's id");
    assert.equal(hub.live.get(id), undefined, "no window session of it");
    const node = await waitFor("its row", () => hostedNode(id));
    const item = hub.tree.getTreeItem(node);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, "error", "the failed icon");
    assert.match(String(item.description), /^Broken agent · failed to start$/);
    assert.equal(item.label, "never runs there");
    // its tooltip says it failed to start and why, as a window session's failed row does (not "runs in the host")
    const tip = tipText((await hoveredRow(node)).tooltip).replace(/\\/g, "");
    assert.match(tip, /Failed · Broken agent · failed to start/);
    assert.ok(tip.includes(words), `the reason in the tooltip: ${tip}`);
    assert.doesNotMatch(tip, /runs in the thread host/);
    const shown = await failedPanel(id);
    assert.equal(shown.detail, words, "the words a window session's failed start says");
    assert.deepEqual([shown.title, shown.agent, shown.cwd], ["never runs there", "Broken agent", workspaceRoot()]);
    await waitFor("the error drawn", () => (hub.panels.rendered(id)?.entries ?? 0) > 0);
    // as the tests read a thread: failed, saying why
    const s = await sessionOf(hub, id);
    assert.deepEqual([s.status, s.statusDetail], ["failed", words]);

    await vscode.commands.executeCommand("acpThreads.stopSession", node);
    await waitFor("the row gone", async () => !(await hostedNode(id)));
    assert.equal(hub.hosted.failed.get(id), undefined);
  });

  it("a stored thread continued in the host whose agent does not start: why, its conversation kept; the next run replaces it", async () => {
    const { hub } = await api();
    const first = await spawnIdleFake("first in the window");
    await first.close();
    const id = first.threadId;
    await vscode.commands.executeCommand("acpThreads.stopSession", id); // a past thread now (a closed one leaves)
    await runSessions("host");
    await vscode.commands.executeCommand("acpThreads.openThread", id);
    await waitFor("the stored thread's panel", () => hub.panels.panelOf(id)?.showsPast);
    const drawn = await waitFor("its conversation drawn", () => hub.panels.rendered(id)?.entries);
    await breakAgent("fake", "Fake agent"); // its recorded agent, as configured now, exits during initialize
    await sendIn(id, [{ type: "text", text: "second, in the host" }]);
    const shown = await failedPanel(id);
    assert.match(shown.detail, /exited during initialize/);
    assert.equal((await hostedNode(id))?.status, "failed", "its row says failed");
    await waitFor("its conversation and the error drawn", () => (hub.panels.rendered(id)?.entries ?? 0) > drawn);

    await useFakeAgent(); // fixed: the next prompt runs in the host, and its run takes the failed one's place
    await sendIn(id, [{ type: "text", text: "third, in the host" }]);
    await ranInHost(id, /^third, in the host$/);
    assert.equal(hub.hosted.failed.get(id), undefined, "no failed start of it is kept");
    await waitFor("its row not failed", async () => (await hostedNode(id))?.status !== "failed");
    await breakAgent("broken", "Broken agent");
  });
});
