// Issue 27 items 3–4 in the real extension host: with the permission setting "ask", an agent that starts in a mode
// that approves on its own (claude-agent-acp "Auto", codex-acp "Auto review") is switched to its ask-before-acting
// mode; the panel draws ONE mode picker (the `mode` config option, with descriptions) and says who decides. Read
// through `sessionOf`, so the same test runs a thread the window's own thread host holds (#35 item 7): its pickers
// come from the host's session state, a pick goes to the host as the panel routes it.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as vscode from "vscode";
import { pickersView } from "../../../src/vscode/pickers-view";
import type { PickerView } from "../../../src/webview/thread/protocol";
import { api, repoRoot, spawnIdleFake, waitFor } from "./helpers";
import type { TestSession } from "./session-of";

async function useModesAgent(kind: string, policy: string): Promise<void> {
  const fake = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");
  const cfg = vscode.workspace.getConfiguration("acpThreads");
  await cfg.update(
    "agents",
    {
      modes: {
        command: process.execPath,
        args: [fake],
        env: { ELECTRON_RUN_AS_NODE: "1", FAKE_AGENT_MODES: kind },
        displayName: "Modes agent",
      },
    },
    vscode.ConfigurationTarget.Global,
  );
  await cfg.update("permissionMode", policy, vscode.ConfigurationTarget.Global);
}

const spawnModes = () => spawnIdleFake("", "modes");

/** The thread's panel, opened: the pickers it was last sent, once `ok` says they are the ones expected. */
async function panelPickers(s: TestSession, ok: (p: PickerView) => boolean): Promise<PickerView> {
  const { hub } = await api();
  hub.panels.open(s.threadId);
  return await waitFor("the panel's pickers", () => {
    const p = hub.panels.shown(s.threadId)?.pickers;
    return p && ok(p) ? p : undefined;
  });
}

describe("who decides what needs permission", () => {
  after(async () => {
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("agents", undefined, vscode.ConfigurationTarget.Global);
    await cfg.update("permissionMode", "approve-reads", vscode.ConfigurationTarget.Global);
  });

  it("policy ask switches an Auto agent to its Manual mode, and the panel shows one mode picker and who decides", async () => {
    await useModesAgent("claude", "ask");
    const s = await spawnModes();
    try {
      assert.equal(s.info?.policyMode?.from.name, "Auto");
      assert.equal(s.info?.policyMode?.to.name, "Manual");
      const view = pickersView(s);
      assert.equal(view.modes, null, "the legacy modes list is not drawn beside the mode config option");
      const mode = view.configOptions?.find((c) => c.id === "mode");
      assert.equal(mode?.currentValue, "default");
      assert.equal(
        mode?.options.find((o) => o.value === "auto")?.description,
        "Claude handles permission decisions",
        "option descriptions reach the panel",
      );
      assert.deepEqual(view.permissions, {
        mode: "Manual",
        description: "Always ask before making changes",
        agentDecides: false,
        switchedFrom: "Auto",
      });
      // the user picks Auto again: the picker follows at once and the header says the agent decides
      await s.setConfigOption("mode", "auto");
      const after = pickersView(s);
      assert.equal(after.configOptions?.find((c) => c.id === "mode")?.currentValue, "auto");
      assert.equal(after.permissions?.agentDecides, true);
      assert.equal(after.permissions?.switchedFrom, undefined);
      // the panel draws the same pickers (the header's picker and line), the pick included
      const shown = await panelPickers(
        s,
        (p) => p.configOptions?.find((c) => c.id === "mode")?.currentValue === "auto",
      );
      assert.deepEqual(shown, pickersView(s));
    } finally {
      await s.close();
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    }
  });

  it("approve-all leaves the agent's own mode and says that the agent decides", async () => {
    await useModesAgent("codex", "approve-all");
    const s = await spawnModes();
    try {
      assert.equal(s.info?.policyMode, undefined);
      const view = pickersView(s);
      assert.equal(view.permissions?.mode, "Auto review");
      assert.equal(view.permissions?.agentDecides, true);
      assert.deepEqual(await panelPickers(s, (p) => !!p.permissions), view, "the panel draws them");
    } finally {
      await s.close();
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    }
  });
});
