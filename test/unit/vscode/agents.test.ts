// The agent list behind a new thread's default and the handoff picker (src/vscode/agents.ts): an installed
// registry agent whose adapter is superseded comes after every current one, marked, never in a preset's place.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { InstalledAgent, RegistryAgent } from "../../../src/core/registry";
import { configuredAgents } from "../../../src/vscode/agents";
import type { Config } from "../../../src/vscode/config";
import type { RegistryService } from "../../../src/vscode/registry/registry-service";

const installed = (id: string, command: string): InstalledAgent => ({
  id,
  name: id,
  version: "0.16.0",
  description: "",
  kind: "npx",
  dir: `/data/agents/${id}/0.16.0`,
  command,
  args: [],
  registryUrl: "https://registry.example/registry.json",
  installedAt: "2026-11-28T00:00:00.000Z",
});

/** The few members configuredAgents reads, as plain data. */
function registryOf(agents: InstalledAgent[], listed: RegistryAgent[] = []): RegistryService {
  const service = {
    installed: () => Promise.resolve(agents),
    updates: () => Promise.resolve(new Map<string, RegistryAgent>()),
    last: { index: { version: "1.0.0", agents: listed } },
  };
  return service as unknown as RegistryService;
}
const config = (custom: { id: string; command: string }[] = []) =>
  ({
    demoProfile: undefined,
    customAgents: custom.map((c) => ({ ...c, displayName: c.id, args: [] })),
  }) as unknown as Config;

test("a superseded install comes after the presets, the current installs and the custom agents, marked", async () => {
  const old = installed(
    "claude-code-acp",
    "/data/agents/claude-code-acp/0.16.0/node_modules/@zed-industries/claude-code-acp/dist/index.js",
  );
  const qwen = installed("qwen-code", "/data/agents/qwen-code/0.16.0/node_modules/@qwen-code/qwen-code/cli.js");
  const list = await configuredAgents(config([{ id: "mine", command: "my-agent" }]), registryOf([old, qwen]));
  const ids = list.map((a) => a.spec.id);
  assert.deepEqual(ids.slice(-3), ["qwen-code", "mine", "claude-code-acp"]);
  assert.equal(ids[0], "codex"); // the presets first, as before
  assert.equal(list.at(-1)?.deprecated?.successor, "@agentclientprotocol/claude-agent-acp");
  assert.equal(list.find((a) => a.spec.id === "qwen-code")?.deprecated, undefined);
});

test("a superseded install never takes a preset's place; a current one still does", async () => {
  const listed: RegistryAgent = {
    id: "claude",
    name: "Claude Code",
    version: "0.16.0",
    description: "",
    distribution: { npx: { package: "@zed-industries/claude-code-acp@0.16.0" } },
  };
  const old = installed("claude", "/data/agents/claude/0.16.0/claude-code-acp");
  const withOld = await configuredAgents(config(), registryOf([old], [listed]));
  const claude = withOld.filter((a) => a.spec.id === "claude");
  assert.deepEqual(
    claude.map((a) => a.source),
    ["preset"],
  );
  const current = installed(
    "claude",
    "/data/agents/claude/0.101.0/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js",
  );
  const withCurrent = await configuredAgents(config(), registryOf([current]));
  assert.deepEqual(
    withCurrent.filter((a) => a.spec.id === "claude").map((a) => a.source),
    ["installed"],
  );
});
