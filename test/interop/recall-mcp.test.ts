// Our recall MCP server (`acp-threads mcp`) offered to real agents as an ACP mcpServer: after a first session is
// imported, a new session's "search past sessions" turn makes the agent call the recall tool (under its own
// namespacing: codex `mcp__acp_threads` namespace, found through tool_search on codex 0.166, Claude
// `mcp__acp-threads__recall`) and the evidence reaches
// the model.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { repoRoot, type AgentId } from "../fixtures/agent-env/index";
import {
  AGENT_TIMEOUT_MS,
  collectTurn,
  runCli,
  runtimeFor,
  setUp,
  skipUnlessInstalled,
  toolCalls,
  type Interop,
} from "./harness";

function runtimeWithRecall(t: Interop) {
  const recall = {
    name: "acp-threads",
    command: process.execPath,
    args: [join(repoRoot(), "dist", "cli.js"), "mcp"],
    env: [{ name: "ACP_THREADS_HOME", value: t.dataHome }],
  };
  return runtimeFor(t, "approve-all", { mcpServers: [recall] });
}

const IMPORT: Partial<Record<AgentId, (t: Interop) => string[]>> = {
  // codex-acp 2.6 (codex 0.166) defers MCP tools behind its tool_search: the scripted model searches first, as a
  // real one does (test/fixtures/model-server/tool-search.ts); codex-acp 0.16 offers them upfront
  "codex-acp": (t) => ["recall", "bootstrap", "--root", t.agent.transcripts.codexSessions],
  "codex-acp-0.16": (t) => ["recall", "bootstrap", "--root", t.agent.transcripts.codexSessions],
  "claude-agent-acp": (t) => ["recall", "sync-claude", "--root", join(t.agent.home, ".claude", "projects")],
};

for (const id of Object.keys(IMPORT) as AgentId[]) {
  test(
    `${id} calls our recall MCP tool and gets evidence from an earlier session`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(id);
      // Claude Code >= 2.1 (claude-agent-acp 0.101) defers MCP tools behind its ToolSearch tool; load them upfront
      if (id === "claude-agent-acp") t.agent.vars.ENABLE_TOOL_SEARCH = t.agent.env.ENABLE_TOOL_SEARCH = "false";
      try {
        const first = runtimeWithRecall(t);
        try {
          const s = await first.ensureSession();
          assert.equal((await collectTurn(first, s.sessionId)).at(-1)?.type, "done");
        } finally {
          await first.close();
        }
        const imported = await runCli(t, IMPORT[id]!(t));
        assert.equal(imported.code, 0, imported.stderr);

        const second = runtimeWithRecall(t);
        try {
          const s = await second.ensureSession();
          const events = await collectTurn(second, s.sessionId, "search past sessions for hello.txt");
          assert.deepEqual(events.at(-1)?.type, "done");
          const recall = toolCalls(events).find((c) => JSON.stringify(c.rawInput ?? "").includes("hello.txt"));
          assert.ok(recall, `no recall tool call: ${JSON.stringify(toolCalls(events).map((c) => c.title))}`);
          assert.equal(recall.status, "completed");
          const answer = events
            .filter((e) => e.type === "text" && e.stream === "output")
            .map((e) => (e as { text: string }).text)
            .join("");
          assert.match(
            answer,
            /^Done: searched past sessions for hello\.txt\. Tool output: .*create hello\.txt containing hi/,
          );
        } finally {
          await second.close();
        }
      } finally {
        await t.cleanup();
      }
    },
  );
}
