import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { createAgentRuntime } from "../../../../src/core/acp/agent-runtime";
import { activeMode, classifyMode, modeForPolicy, sessionModes } from "../../../../src/core/acp/policy-mode";
import type { PermissionPolicy } from "../../../../src/core/model/agent";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { AGENT_MODES, FakeModes } from "../../../fixtures/fake-agents/agent-modes";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const AGENT_JS = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");

test("today's adapters' modes are classified by who approves", () => {
  const cls = (kind: string) => Object.fromEntries(AGENT_MODES[kind].modes.map((m) => [m.id, classifyMode(m)]));
  assert.deepEqual(cls("codex"), {
    "read-only": "asks",
    "workspace-write": "edits",
    agent: "auto",
    "agent-full-access": "all",
  });
  assert.deepEqual(cls("claude"), {
    default: "asks",
    acceptEdits: "edits",
    plan: "plan",
    auto: "auto",
    bypassPermissions: "all",
  });
  // gemini's ids, and words of an unknown agent
  assert.equal(classifyMode({ id: "yolo", name: "YOLO" }), "all");
  assert.equal(classifyMode({ id: "autoEdit", name: "Auto Edit" }), "edits");
  assert.equal(classifyMode({ id: "x", name: "Careful", description: "Always ask before running tools" }), "asks");
  assert.equal(classifyMode({ id: "build", name: "Build" }), "unknown");
});

test("the mode config option is preferred to the legacy modes list", () => {
  const m = new FakeModes(AGENT_MODES.claude);
  const both = sessionModes(m.modes(), m.configOptions());
  assert.equal(both?.source, "config");
  assert.equal(both?.configId, "mode");
  assert.equal(activeMode(both)?.name, "Auto");
  assert.equal(sessionModes(m.modes(), [])?.source, "modes");
  assert.equal(sessionModes(null, null), null);
});

test("a policy that asks or denies picks the agent's ask-before-acting mode; approve-all leaves it", () => {
  const pick = (kind: string, policy: PermissionPolicy, start?: string) => {
    const m = new FakeModes(AGENT_MODES[kind]);
    if (start) m.current = start;
    return modeForPolicy(policy, sessionModes(m.modes(), m.configOptions()))?.id ?? null;
  };
  assert.equal(pick("codex", "ask"), "read-only");
  assert.equal(pick("codex", "approve-reads"), "read-only");
  assert.equal(pick("codex", "deny-all"), "read-only");
  assert.equal(pick("codex", "approve-all"), null);
  assert.equal(pick("claude", "ask"), "default");
  assert.equal(pick("claude", "ask", "plan"), null, "plan mode asks before acting: left as it is");
  assert.equal(pick("claude", "ask", "default"), null);
});

for (const kind of ["codex", "claude"])
  test(`policy ask switches ${kind}'s auto-approving start mode to its asking mode through the config option`, () =>
    withTmpDir("acp-policy-mode-", async (cwd) => {
      const rt = createAgentRuntime({
        agent: { id: "fake", displayName: "Fake", command: process.execPath, args: [AGENT_JS] },
        cwd,
        env: { FAKE_AGENT_MODES: kind },
        permissionPolicy: "ask",
      });
      try {
        const opened = await rt.ensureSession();
        const want = kind === "codex" ? "read-only" : "default";
        assert.equal(opened.policyMode?.to.id, want);
        assert.equal(opened.policyMode?.from.id, AGENT_MODES[kind].start);
        assert.equal(opened.policyMode?.error, undefined);
        const now = sessionModes(opened.modes, opened.configOptions);
        assert.equal(now?.currentId, want, "the answer the views draw from is the agent's new state");
        assert.equal(opened.modes?.currentModeId, want);
      } finally {
        await rt.close();
      }
    }));

test("approve-all leaves the agent's own mode; a refused switch is reported and the session stays usable", () =>
  withTmpDir("acp-policy-mode-", async (cwd) => {
    const agent = { id: "fake", displayName: "Fake", command: process.execPath, args: [AGENT_JS] };
    const all = createAgentRuntime({
      agent,
      cwd,
      env: { FAKE_AGENT_MODES: "claude" },
      permissionPolicy: "approve-all",
    });
    try {
      const opened = await all.ensureSession();
      assert.equal(opened.policyMode, undefined);
      assert.equal(sessionModes(opened.modes, opened.configOptions)?.currentId, "auto");
    } finally {
      await all.close();
    }
    const refusing = createAgentRuntime({
      agent,
      cwd,
      env: { FAKE_AGENT_MODES: "codex", FAKE_AGENT_REFUSE_MODE: "1" },
      permissionPolicy: "ask",
    });
    try {
      const opened = await refusing.ensureSession();
      assert.match(opened.policyMode?.error ?? "", /refused/);
      assert.equal(sessionModes(opened.modes, opened.configOptions)?.currentId, "agent");
    } finally {
      await refusing.close();
    }
  }));
