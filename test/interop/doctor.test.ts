// `acp-threads doctor` against the real installs: every preset agent on PATH is found, and the version it
// reports is the one test/agents/package.json pins (so a silent upgrade of an agent shows up here first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { repoRoot } from "../fixtures/agent-env/index";
import { jsonLines, runCli, setUp, skipUnlessInstalled } from "./harness";

const PINNED: Record<string, string> = {
  codex: "@zed-industries/codex-acp",
  claude: "@zed-industries/claude-agent-acp",
  gemini: "@google/gemini-cli",
  opencode: "opencode-ai",
};

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
      t.agent.env.PATH = `${dirname(t.agent.command)}:${t.agent.env.PATH ?? ""}`;
      const r = await runCli(t, ["doctor", "--format", "json"]);
      const text = r.stdout.trim();
      const entries = (text.startsWith("[") ? JSON.parse(text) : jsonLines(text)) as {
        id: string;
        available: boolean;
        version: string | null;
        resolvedPath: string | null;
      }[];
      for (const [id, pkg] of Object.entries(PINNED)) {
        const e = entries.find((x) => x.id === id);
        assert.ok(e?.available, `${id}: ${JSON.stringify(e)}`);
        assert.equal(e.version, pins[pkg], `${id} version`);
        assert.equal(dirname(e.resolvedPath ?? ""), dirname(t.agent.command));
      }
    } finally {
      await t.cleanup();
    }
  },
);
