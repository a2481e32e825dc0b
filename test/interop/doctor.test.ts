// `acp-threads doctor` against the real installs: every preset agent on PATH is found, the version it reports
// is the one test/agents/package.json pins (so a silent upgrade of an agent shows up here first), and its
// `initialize` probe reports what the agent advertises.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import type { DoctorEntry } from "../../src/core/acp/runtime";
import { opencodeEnv } from "../fixtures/agent-env/configs";
import { agentBin, agentsNode, repoRoot } from "../fixtures/agent-env/index";
import { jsonLines, runCli, setUp, skipUnlessInstalled } from "./harness";

// codex-acp and claude-agent-acp are bin names of both the old (@zed-industries) and today's
// (@agentclientprotocol) packages: node_modules/.bin links one of each, and doctor must report that one's version.
const PINNED: Record<string, string[]> = {
  codex: ["@agentclientprotocol/codex-acp", "@zed-industries/codex-acp"],
  claude: ["@agentclientprotocol/claude-agent-acp", "@zed-industries/claude-agent-acp"],
  gemini: ["@google/gemini-cli"],
  opencode: ["opencode-ai"],
};
/** Session capabilities each adapter has advertised since the versions test/agents pinned first. */
const SESSION_CAPS: Record<string, string[]> = {
  codex: ["list", "resume", "close"],
  claude: ["list", "resume", "fork", "close"],
  gemini: [],
  opencode: ["list", "resume"],
};

/** The npm package a .bin link resolves into (the nearest package.json above its target). */
function packageOf(bin: string): string {
  let dir = dirname(realpathSync(bin));
  while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string }).name;
}

test(
  "doctor finds the real preset agents with the pinned versions and probes what they advertise",
  { timeout: 300_000, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("codex-acp");
    try {
      const pins = (
        JSON.parse(readFileSync(join(repoRoot(), "test", "agents", "package.json"), "utf8")) as {
          dependencies: Record<string, string>;
        }
      ).dependencies;
      const bins = dirname(agentBin("gemini"));
      t.agent.env.PATH = `${bins}:${t.agent.env.PATH ?? ""}`;
      // opencode's initialize otherwise fetches ~25 MB of provider packages into the fresh HOME first
      Object.assign(t.agent.env, opencodeEnv(t.workspace));
      // claude-agent-acp 0.101 needs Node >= 22: the product starts it with the Node named here (this machine has 20)
      t.agent.env.ACP_THREADS_NODE = agentsNode();
      const r = await runCli(t, ["doctor", "--probe-timeout", "120", "--format", "json"]);
      const text = r.stdout.trim();
      const entries = (text.startsWith("[") ? JSON.parse(text) : jsonLines(text)) as DoctorEntry[];
      for (const [id, pkgs] of Object.entries(PINNED)) {
        const e = entries.find((x) => x.id === id);
        assert.ok(e?.available, `${id}: ${JSON.stringify(e)}`);
        assert.equal(dirname(e.resolvedPath ?? ""), bins);
        const pkg = packageOf(e.resolvedPath!);
        assert.ok(pkgs.includes(pkg), `${id} comes from ${pkg}`);
        assert.equal(e.version, pins[pkg], `${id} version (${pkg})`);
        const probe = e.probe;
        assert.ok(probe?.ok, `${id} probe: ${JSON.stringify(probe)}`);
        assert.equal(probe.protocolVersion, 1, id);
        assert.equal(probe.loadSession, true, `${id} loadSession`);
        for (const cap of SESSION_CAPS[id]!) assert.ok(probe.sessionCapabilities?.includes(cap), `${id} ${cap}`);
        for (const m of probe.authMethods ?? []) assert.ok(["agent", "terminal", "env_var"].includes(m.kind), id);
      }
      // the text form prints the same probe under each agent
      const plain = await runCli(t, ["doctor", "--probe-timeout", "120"]);
      assert.equal(plain.code, 0, plain.stderr);
      assert.match(plain.stdout, /^codex +ok +\S+/m);
      assert.match(plain.stdout, /^ +session +load, /m);
    } finally {
      await t.cleanup();
    }
  },
);
