// Each real ACP agent completes one turn THROUGH OUR CLI (`dist/cli.js run --format json`) against the scripted
// model: it writes hello.txt, runs `echo hi`, asks permission (approved by --permission approve-all), and the
// client methods each agent is known to use show up in the protocol log (see real-agents.md's matrix).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentId } from "../fixtures/agent-env/index";
import {
  AGENT_TIMEOUT_MS,
  agentRequests,
  jsonLines,
  processesGone,
  runAgentTurn,
  setUp,
  skipUnlessInstalled,
  type Interop,
} from "./harness";

interface Case {
  id: AgentId;
  /** Client methods the agent must call (from the protocol log). */
  methods: string[];
  /** Minimum number of permission requests answered. */
  permissions: number;
  /** The model API route the agent must have used on the scripted server. */
  route: string;
}

const CASES: Case[] = [
  { id: "codex-acp", methods: ["session/request_permission"], permissions: 1, route: "POST /v1/responses" },
  { id: "claude-agent-acp", methods: ["session/request_permission"], permissions: 1, route: "POST /v1/messages" },
  // pi has no permission gate: it writes and runs without asking, and calls no client method
  { id: "pi-acp", methods: [], permissions: 0, route: "POST /v1/chat/completions" },
  {
    id: "gemini",
    methods: ["fs/read_text_file", "session/request_permission", "fs/write_text_file"],
    permissions: 1,
    route: "POST /v1beta/models/*:streamGenerateContent",
  },
  {
    id: "opencode",
    methods: ["session/request_permission", "fs/write_text_file"],
    permissions: 2,
    route: "POST /v1/chat/completions",
  },
  // the old adapters, still installed by users who pinned them
  { id: "codex-acp-0.16", methods: ["session/request_permission"], permissions: 1, route: "POST /v1/responses" },
  {
    id: "claude-agent-acp-0.23",
    methods: ["session/request_permission"],
    permissions: 1,
    route: "POST /v1/messages",
  },
  {
    id: "claude-code-acp",
    methods: [
      "session/request_permission",
      "fs/write_text_file",
      "terminal/create",
      "terminal/wait_for_exit",
      "terminal/output",
      "terminal/release",
    ],
    permissions: 2,
    route: "POST /v1/messages",
  },
];

function auditRecords(t: Interop): Record<string, unknown>[] {
  const file = join(t.dataHome, "audit.jsonl");
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
}

for (const c of CASES) {
  test(
    `${c.id} writes a file and runs a command through acp-threads run`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(c.id);
      try {
        const logFile = join(t.runDir, "protocol.log");
        const r = await runAgentTurn(t, "approve-all", undefined, ["--protocol-log", logFile, "--timeout", "100"]);
        const lines = jsonLines(r.stdout);
        const summary = lines.at(-1) ?? {};
        const context = `exit ${r.code}\nstderr: ${r.stderr.slice(-1500)}\nsummary: ${JSON.stringify(summary)}`;
        assert.equal(r.code, 0, context);
        assert.equal(summary.type, "summary", context);
        assert.equal(summary.stopReason, "end_turn", context);
        assert.ok((summary.toolCalls as number) >= 1, context);
        assert.equal(readFileSync(join(t.workspace, "hello.txt"), "utf8").trim(), "hi");

        const answer = lines
          .filter((l) => l.type === "text" && l.stream === "output")
          .map((l) => l.text)
          .join("");
        assert.match(answer, /Done: created hello\.txt, ran `echo hi`\. Tool output: .*hi/);

        const permissions = summary.permissions as { decidedBy: string; optionKind: string }[];
        assert.ok(permissions.length >= c.permissions, `permissions: ${JSON.stringify(permissions)}`);
        for (const p of permissions)
          assert.deepEqual([p.decidedBy, p.optionKind.startsWith("allow_")], ["policy", true]);
        const audit = auditRecords(t);
        assert.equal(audit.length, permissions.length, "every decision is in the audit log");
        assert.ok(audit.every((a) => a.policy === "approve-all" && a.sessionId === summary.sessionId));

        const stats = t.server.stats();
        assert.ok(
          (stats.byRoute[c.route] ?? 0) >= 2 && stats.toolCalls >= 2,
          `model traffic: ${JSON.stringify(stats)}`,
        );
        const methods = agentRequests(logFile);
        for (const m of c.methods)
          assert.ok(methods.includes(m), `${m} not called; agent requests: ${methods.join(", ")}`);
        assert.deepEqual(await processesGone(t), [], "the agent (and anything it started) is gone after the CLI exits");
      } finally {
        await t.cleanup();
      }
    },
  );
}
