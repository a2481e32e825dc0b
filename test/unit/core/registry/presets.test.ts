// The install guidance agrees with itself (#37 item 1): the bundled registry snapshot, the presets (what Doctor
// and "Spawn" name) and the walkthrough name the same adapters, and a registry entry of a superseded adapter
// (renamed or deprecated package) is marked and listed after the current agents, never their default.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { AGENT_PRESETS } from "../../../../src/core/acp/agent-registry";
import {
  currentFirst,
  deprecationOf,
  deprecationOfInstalled,
  presetDisagreements,
  presetPackage,
  validateIndex,
  type InstalledAgent,
  type RegistryAgent,
} from "../../../../src/core/registry";
import { bundledSnapshot } from "../../../../src/core/registry/snapshot";
import { repoRoot } from "../../../fixtures/agent-env/index";

const snapshot = () => validateIndex(bundledSnapshot()).index.agents;
const entry = (id: string, pkg: string | undefined, extra: Partial<RegistryAgent> = {}): RegistryAgent => ({
  id,
  name: id,
  version: "1.0.0",
  description: "an agent",
  distribution: pkg ? { npx: { package: `${pkg}@1.0.0` } } : { binary: {} },
  ...extra,
});
const installed = (id: string, command: string, version = "1.0.0"): InstalledAgent => ({
  id,
  name: id,
  version,
  description: "",
  kind: "npx",
  dir: `/data/agents/${id}/${version}`,
  command,
  args: [],
  registryUrl: "https://registry.example/registry.json",
  installedAt: "2026-11-28T00:00:00.000Z",
});

test("the bundled snapshot agrees with the presets: same package, or marked superseded by the preset's", () => {
  const agents = snapshot();
  assert.deepEqual(presetDisagreements(agents), []);
  // the snapshot's Claude Code (claude-code-acp) and Codex CLI (zed-industries/codex-acp binaries) are the old adapters
  const claude = agents.find((a) => a.id === "claude-code-acp");
  const codex = agents.find((a) => a.id === "codex-acp");
  assert.ok(claude && codex, "the snapshot lists both");
  assert.equal(deprecationOf(claude)?.successor, "@agentclientprotocol/claude-agent-acp");
  assert.equal(deprecationOf(codex)?.successor, "@agentclientprotocol/codex-acp");
  assert.equal(deprecationOf(agents.find((a) => a.id === "gemini")!), undefined);
});

test("a registry entry of a preset's agent naming another package, unmarked, is a disagreement", () => {
  const bad = [
    entry("gemini", "@someone/gemini-acp"),
    entry("claude-acp", "@agentclientprotocol/claude-agent-acp"), // agrees
    entry("opencode", undefined), // binaries only: nothing to compare
  ];
  assert.deepEqual(presetDisagreements(bad), [
    "gemini 1.0.0: installs @someone/gemini-acp, the gemini preset @google/gemini-cli",
  ]);
  // a preset moving to another package than the one its superseded entries point to is caught too
  const moved = AGENT_PRESETS.map((p) => (p.id === "codex" ? { ...p, install: "npm i -g codex-acp-next" } : p));
  assert.equal(presetDisagreements([entry("codex-acp", "@zed-industries/codex-acp")], moved).length, 1);
});

test("superseded installed agents come after the current ones, marked, whatever order they were installed in", () => {
  const old = installed(
    "claude-code-acp",
    "/data/agents/claude-code-acp/0.16.0/node_modules/@zed-industries/claude-code-acp/dist/index.js",
    "0.16.0",
  );
  const codexBin = installed("codex-acp", "/data/agents/codex-acp/0.9.2/codex-acp", "0.9.2");
  const current = installed("qwen-code", "/data/agents/qwen-code/0.9.1/node_modules/@qwen-code/qwen-code/cli.js");
  const index = { agents: snapshot() }; // codex-acp 0.9.2 ships binaries: known superseded by its entry
  const { current: now, superseded } = currentFirst([old, codexBin, current], index);
  assert.deepEqual(
    now.map((a) => a.id),
    ["qwen-code"],
  );
  assert.deepEqual(
    superseded.map((s) => [s.agent.id, s.deprecated.successor]),
    [
      ["claude-code-acp", "@agentclientprotocol/claude-agent-acp"],
      ["codex-acp", "@agentclientprotocol/codex-acp"],
    ],
  );
  // without a listing, an npm install is still known by its package folder
  assert.equal(deprecationOfInstalled(old)?.reason, "deprecated");
  assert.equal(deprecationOfInstalled(current), undefined);
});

test("the walkthrough names each preset's package and no superseded one", () => {
  const md = readFileSync(join(repoRoot(), "media", "walkthrough", "install-agent.md"), "utf8");
  for (const p of AGENT_PRESETS) assert.ok(md.includes(`\`${p.install}\``), `${p.id}: ${p.install}`);
  for (const p of AGENT_PRESETS) assert.ok(presetPackage(p), p.install);
  assert.doesNotMatch(md, /@zed-industries\//);
});
