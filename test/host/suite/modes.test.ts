// Issue 27 items 3–4 in the real extension host: with the permission setting "ask", an agent that starts in a mode
// that approves on its own (claude-agent-acp "Auto", codex-acp "Auto review") is switched to its ask-before-acting
// mode; the panel draws ONE mode picker (the `mode` config option, with descriptions) and says who decides.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as vscode from "vscode";
import { pickersView } from "../../../src/vscode/pickers-view";
import { repoRoot, spawnIdleFake } from "./helpers";
import { windowOnly } from "./session-of";

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

const spawnModes = async () => windowOnly(await spawnIdleFake("", "modes"), "session info and config options");

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
    } finally {
      await s.close();
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
    } finally {
      await s.close();
    }
  });
});
