// `acp-threads doctor` against the real installs: every preset agent on PATH is found, and the version it
// reports is the one test/agents/package.json pins (so a silent upgrade of an agent shows up here first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { agentBin, repoRoot } from "../fixtures/agent-env/index";
import { jsonLines, runCli, setUp, skipUnlessInstalled } from "./harness";

// codex-acp and claude-agent-acp are bin names of both the old (@zed-industries) and today's
// (@agentclientprotocol) packages: node_modules/.bin links one of each, and doctor must report that one's version.
const PINNED: Record<string, string[]> = {
  codex: ["@agentclientprotocol/codex-acp", "@zed-industries/codex-acp"],
  claude: ["@agentclientprotocol/claude-agent-acp", "@zed-industries/claude-agent-acp"],
  gemini: ["@google/gemini-cli"],
  opencode: ["opencode-ai"],
};

/** The npm package a .bin link resolves into (the nearest package.json above its target). */
function packageOf(bin: string): string {
  let dir = dirname(realpathSync(bin));
  while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string }).name;
}

test(
  "doctor finds the real preset agents with the pinned versions",
  { timeout: 60_000, skip: skipUnlessInstalled },
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
      const r = await runCli(t, ["doctor", "--format", "json"]);
      const text = r.stdout.trim();
      const entries = (text.startsWith("[") ? JSON.parse(text) : jsonLines(text)) as {
        id: string;
        available: boolean;
        version: string | null;
        resolvedPath: string | null;
      }[];
      for (const [id, pkgs] of Object.entries(PINNED)) {
        const e = entries.find((x) => x.id === id);
        assert.ok(e?.available, `${id}: ${JSON.stringify(e)}`);
        assert.equal(dirname(e.resolvedPath ?? ""), bins);
        const pkg = packageOf(e.resolvedPath!);
        assert.ok(pkgs.includes(pkg), `${id} comes from ${pkg}`);
        assert.equal(e.version, pins[pkg], `${id} version (${pkg})`);
      }
    } finally {
      await t.cleanup();
    }
  },
);
