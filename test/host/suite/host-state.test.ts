// Issue 35, a hosted run's session state in the real extension host: a thread that `acp-threads run --detach` runs
// mid-turn, with an agent that has codex-acp's modes, is opened in a panel. The panel draws the mode picker from the
// state the host pushes (before, a hosted panel drew no pickers and a change was dropped), a choice made in it goes
// to the host, reaches the agent (the picker then shows the agent's own answer) and a mode the agent does not offer
// is refused with a clear error.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { routeHostedControls } from "../../../src/vscode/host/hosted-controls";
import { api, waitFor } from "./helpers";
import { cli, detach } from "./host-cli";

describe("a hosted thread's modes and config options (#35)", () => {
  afterEach(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  it("the panel shows the hosted run's mode picker and a change in it reaches the agent", async () => {
    const { hub } = await api();
    const env = ["FAKE_AGENT_MODES=codex", "FAKE_AGENT_COMMANDS=1"].flatMap((e) => ["--env", e]);
    const id = await detach(hub.home, [...env, "sleep 60000"]);
    try {
      await vscode.commands.executeCommand("acpThreads.openThread", id);
      const view = await waitFor("the panel's view", () => hub.hosted.get(id));
      await waitFor("the turn running", () => view.events.some((e) => e.type === "text" && /sleeping/.test(e.text)));
      const modeOf = () => hub.panels.shown(id)?.pickers?.configOptions?.find((c) => c.id === "mode");
      const picker = await waitFor("the mode picker in the panel", modeOf);
      assert.deepEqual(
        picker.options.map((o) => o.value),
        ["read-only", "workspace-write", "agent", "agent-full-access"],
      );
      assert.deepEqual(
        view.sessionState?.commands.map((c) => c.name),
        ["review", "init"],
        "the slash commands came too",
      );

      // the panel's pick (the webview's setConfig message, as the panel routes it for a hosted thread)
      const to = picker.currentValue === "workspace-write" ? "read-only" : "workspace-write";
      assert.equal(await routeHostedControls(view, { type: "setConfig", configId: "mode", value: to }), true);
      await waitFor("the agent's answer in the picker", () => modeOf()?.currentValue === to);

      await assert.rejects(routeHostedControls(view, { type: "setMode", modeId: "root" }), /has no mode 'root'/);
      assert.equal(modeOf()?.currentValue, to, "a refused mode changes nothing");
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });
});
