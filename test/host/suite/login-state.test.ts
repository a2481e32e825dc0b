// Issue 23 item 5 in the real extension host: the agent's login state (`_auth/status_update`, as codex-acp 2.6
// sends it right after initialize) shows next to the agent's name in the thread panel's header with the action
// that fits ("Log out" when the agent offers ACP logout), follows a new state live (after logging out: "Not
// logged in"), shows in the sessions tree's tooltip and the new-thread agent picker, and is never written to the
// thread file. Read through `sessionOf`: the same test runs a thread the window's own thread host holds (#35 item 7).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as vscode from "vscode";
import type { HostMessage } from "../../../src/webview/thread/protocol";
import { join } from "node:path";
import { api, hoveredRow, repoRoot, spawnIdleFake, tipText, useFakeAgent, waitFor } from "./helpers";
import { hostRunSessions, sendNewInHost } from "./host-cli";

/** The new-thread agent picker's detail of `agentId` (a new draft panel's agent list). */
async function pickerDetail(agentId: string): Promise<string> {
  const { hub } = await api();
  const draft = await vscode.commands.executeCommand<string>("acpThreads.spawn");
  await waitFor("the new thread's panel", () => hub.panels.get(draft));
  const posts: HostMessage[] = [];
  hub.composer.attach({ threadId: draft, post: (m) => void posts.push(m) });
  const picked = await waitFor("the agent list", () =>
    posts
      .flatMap((m) => (m.type === "composer" && m.state.draft ? m.state.draft.agents : []))
      .find((a) => a.id === agentId),
  );
  return picked.detail ?? "";
}

describe("the agent's login state (issue 23 item 5)", () => {
  before(useFakeAgent);

  it("the header shows the state with Log out, follows a new one, and the tree's tooltip and the agent picker carry it", async () => {
    const { hub } = await api();
    const fake = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    const agents = cfg.get<Record<string, unknown>>("agents") ?? {};
    const env = { ELECTRON_RUN_AS_NODE: "1", FAKE_AGENT_LOGOUT: "1", FAKE_AGENT_AUTH_STATUS: "Logged in as a@b.c" };
    await cfg.update(
      "agents",
      { ...agents, "fake-login": { command: process.execPath, args: [fake], env, displayName: "Fake login" } },
      vscode.ConfigurationTarget.Global,
    );
    try {
      const s = await spawnIdleFake("", "fake-login");
      await waitFor("the agent's login state", () => s.authStatus);
      hub.panels.open(s.threadId);
      await waitFor(
        "the header's login state",
        () => hub.panels.shown(s.threadId)?.login === "Logged in as a@b.c [logout]",
      );
      const tip = async () => tipText((await hoveredRow({ type: "live", threadId: s.threadId })).tooltip);
      assert.match(await tip(), /Logged in as a@b\\\.c/);

      // the new-thread agent picker: the running agent's detail carries it
      assert.match(await pickerDetail("fake-login"), /Logged in as a@b\.c/);

      // the header's "Log out" (the panel's message does the same): the agent reports its new state
      await s.auth("logout");
      await waitFor("the new state in the header", () => hub.panels.shown(s.threadId)?.login === "Not logged in");
      assert.match(await tip(), /Not logged in/);

      // the account is not written to the thread file
      await s.close();
      const stored = readFileSync(hub.threads.read(s.threadId).path, "utf8");
      assert.ok(!stored.includes("a@b.c"), "the thread file does not hold the account");
    } finally {
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      await cfg.update("agents", agents, vscode.ConfigurationTarget.Global);
    }
  });
});

describe("the agent picker's login hint for a run in the thread host (#35, parity row 21)", () => {
  hostRunSessions("login-host", { FAKE_AGENT_AUTH_STATUS: "Logged in as h@b.c" });
  afterEach(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  it("a hosted run no panel here follows: the picker says its agent's login, from the host's status", async () => {
    const { hub } = await api();
    const id = await sendNewInHost("login-host", [{ type: "text", text: "hello" }]);
    // no view here follows it: its session state (pushed to followers only) is not in this window
    hub.panels.get(id)?.dispose();
    await waitFor("no view following the thread", () => !hub.hosted.get(id));
    await waitFor("the host's row with the agent's login", () => hub.hosted.link.session(id)?.authStatus);
    assert.equal(hub.live.get(id), undefined, "no session of it in this window");
    // before, the hint read the window's own sessions only: none here
    assert.match(await pickerDetail("login-host"), /Logged in as h@b\.c/);
  });
});
