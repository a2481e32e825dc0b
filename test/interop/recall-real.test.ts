// Recall over transcripts written by the real CLIs against the scripted model: codex exec and claude --print
// (a Chinese prompt with tool calls), and a two-turn codex-acp session with a long answer. Each is imported the
// way a user would (recall sync / bootstrap / sync-claude) and searched through `acp-threads recall`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { AGENT_TIMEOUT_MS, jsonLines, runAgentTurn, runCli, setUp, skipUnlessInstalled, type Interop } from "./harness";

const ZH_PROMPT = "create zh.txt containing 登录缓存已清理 and run `echo zebrafish`";

async function recallJson(t: Interop, args: string[]) {
  const r = await runCli(t, ["recall", "--format", "json", "--global", ...args]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as {
    status: string;
    sessions: {
      source: string;
      path: string;
      windows: { messages: { role: string; text: string; hit: boolean; line: number | null; off_chain: boolean }[] }[];
    }[];
  };
}

const CASES = [
  {
    id: "codex-exec" as const,
    command: ["codex", "--skip-git-repo-check", ZH_PROMPT],
    flags: [],
    source: "codex_rollout",
    sync: (t: Interop) => ["recall", "bootstrap", "--root", t.agent.transcripts.codexSessions],
  },
  {
    id: "claude-exec" as const,
    command: ["claude", ZH_PROMPT],
    flags: ["--permission-mode", "bypassPermissions"],
    source: "claude_code_jsonl",
    sync: (t: Interop) => ["recall", "sync-claude", "--root", dirname(t.agent.transcripts.claudeProject)],
  },
];

for (const c of CASES) {
  test(
    `${c.id}: a Chinese prompt with tool calls is found by its 2-char words and its tool output`,
    { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
    async () => {
      const t = await setUp(c.id);
      try {
        t.agent.env.PATH = `${dirname(t.agent.command)}:${t.agent.env.PATH ?? ""}`;
        const run = await runCli(t, [
          "exec",
          "--format",
          "json",
          "--timeout",
          "100",
          "--cwd",
          t.workspace,
          ...c.flags,
          "--",
          ...c.command,
        ]);
        assert.equal(run.code, 0, run.stderr.slice(-1500));
        // the exec thread links its transcript: `recall sync` indexes both; the root sync then finds nothing new there
        assert.equal((await runCli(t, ["recall", "sync"])).code, 0);
        const sync = await runCli(t, [...c.sync(t), "--format", "json"]);
        assert.equal(sync.code, 0, sync.stderr);
        const cjk = await recallJson(t, ["登录"]);
        assert.equal(cjk.status, "ok");
        assert.ok(
          cjk.sessions.some((s) => s.source === c.source),
          JSON.stringify(cjk.sessions.map((s) => s.source)),
        );
        const tool = await recallJson(t, ["zebrafish"]);
        const session = tool.sessions.find((s) => s.source === c.source);
        assert.ok(session, "the tool call or its output is indexed");
        const hits = session.windows.flatMap((w) => w.messages).filter((m) => m.hit);
        assert.ok(
          hits.some((m) => m.role === "tool"),
          JSON.stringify(hits),
        );
        assert.ok(
          hits.every((m) => typeof m.line === "number" && m.line > 0),
          "hits point at transcript lines",
        );
        assert.ok(
          session.windows.flatMap((w) => w.messages).every((m) => m.off_chain === false),
          "a one-turn conversation has no abandoned branch (Claude's hook progress lines are dead-end siblings, not one)",
        );
        const status = await runCli(t, ["status", "--format", "json"]);
        const counts = JSON.parse(status.stdout) as {
          sources: { source: string; sessions: number; unknown_records: number }[];
        };
        const mine = counts.sources.find((s) => s.source === c.source);
        assert.equal(mine?.sessions, 1, "one session, not a copy per sync path");
        assert.equal(mine?.unknown_records, 0, "every record type these CLI versions write is known");
      } finally {
        await t.cleanup();
      }
    },
  );
}

test(
  "codex-acp: two turns and a long answer are one session; --all-terms spans both turns",
  { timeout: AGENT_TIMEOUT_MS, skip: skipUnlessInstalled },
  async () => {
    const t = await setUp("codex-acp");
    try {
      const r = await runAgentTurn(
        t,
        "approve-all",
        ["create notes.txt containing platypus notes", "give me a long report about 会话恢复"],
        ["--timeout", "100"],
      );
      assert.equal(r.code, 0, `${r.stderr.slice(-1500)}\n${JSON.stringify(jsonLines(r.stdout).at(-1))}`);
      const sync = await runCli(t, ["recall", "bootstrap", "--root", t.agent.transcripts.codexSessions]);
      assert.equal(sync.code, 0, sync.stderr);
      const both = await recallJson(t, ["--all-terms", "platypus", "会话恢复"]);
      assert.equal(both.status, "ok");
      const codex = both.sessions.filter((s) => s.source === "codex_rollout");
      assert.equal(codex.length, 1, "both turns are in one Codex session");
      // the Chinese long answer: "## 第N节 … 脚本模型的第N个要点 …" repeated over several KB
      const long = await recallJson(t, ["--message-chars", "300", "要点"]);
      const msg = long.sessions[0].windows.flatMap((w) => w.messages).find((m) => m.hit && m.role === "assistant");
      assert.ok(msg && msg.text.length <= 302, "the long answer is cut to the message budget");
    } finally {
      await t.cleanup();
    }
  },
);
