// Real agents inside the OS sandbox (#34, `--sandbox`): codex-acp 2.6 and claude-agent-acp 0.101 write a file, run
// a command and take a second turn with their adapter, their CLI and every command they start inside bubblewrap;
// `codex exec` runs sandboxed as an exec run. Linux with bubblewrap (CI installs it); the isolated agent home is
// under /var/tmp, outside the temp folder the sandbox leaves writable.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { AgentId } from "../fixtures/agent-env/index";
import { noBwrap } from "../fixtures/sandbox-world";
import { AGENT_TIMEOUT_MS, jsonLines, PROMPT, runAgentTurn, runCli, setUp, skipUnlessInstalled } from "./harness";

const skip = skipUnlessInstalled || noBwrap;

// With a ~/.netrc, the home is hidden whole and its other entries shown again (hidden-folders.ts): the agent's own
// state (~/.codex, ~/.claude, ~/.claude.json) is bound into that hidden home.
for (const [id, netrc] of [
  ["codex-acp", false],
  ["claude-agent-acp", false],
  ["codex-acp", true],
  ["claude-agent-acp", true],
] as [AgentId, boolean][]) {
  test(
    `${id} works sandboxed${netrc ? " with a ~/.netrc (its home hidden)" : ""}: a file written, a command run, a second turn`,
    { timeout: AGENT_TIMEOUT_MS, skip },
    async () => {
      const t = await setUp(id);
      if (netrc) writeFileSync(join(t.agent.home, ".netrc"), "machine example.com login x password y\n");
      try {
        const r = await runAgentTurn(t, "approve-all", [PROMPT, "say hello again"], ["--sandbox", "--timeout", "100"]);
        const lines = jsonLines(r.stdout);
        const summary = lines.at(-1) ?? {};
        assert.equal(r.code, 0, `stderr: ${r.stderr.slice(-2000)}\nsummary: ${JSON.stringify(summary)}`);
        assert.match(r.stderr, /sandboxed \(bubblewrap\)/);
        assert.equal(summary.turns, 2);
        assert.equal(readFileSync(join(t.workspace, "hello.txt"), "utf8").trim(), "hi");
        const tools = lines.filter((l) => l.type === "tool_call" || l.type === "tool_call_update");
        assert.ok(tools.length > 0, "the agent ran its tools inside the sandbox");
        assert.deepEqual(
          lines.filter((l) => l.type === "done").map((l) => l.stopReason),
          ["end_turn", "end_turn"],
        );
      } finally {
        await t.cleanup();
      }
    },
  );
}

test("codex exec runs sandboxed through acp-threads exec --sandbox", { timeout: AGENT_TIMEOUT_MS, skip }, async () => {
  const t = await setUp("codex-exec");
  try {
    t.agent.env.PATH = `${dirname(t.agent.command)}:${t.agent.env.PATH ?? ""}`;
    const r = await runCli(t, [
      "exec",
      "--sandbox",
      "--format",
      "json",
      "--",
      "codex",
      "--skip-git-repo-check",
      PROMPT,
    ]);
    assert.equal(r.code, 0, `stdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr.slice(-2000)}`);
    assert.equal(readFileSync(join(t.workspace, "hello.txt"), "utf8").trim(), "hi");
    const exit = jsonLines(r.stdout).find((l) => l.type === "exit") as { run?: { sandboxed?: boolean } } | undefined;
    assert.equal(exit?.run?.sandboxed, true);
    // codex's own sandbox (workspace-write) nests inside ours and its command still runs
    // (the output arrives in chunks that split lines anywhere: match the joined text, not the JSON lines)
    const output = jsonLines(r.stdout)
      .filter((l) => l.type === "output")
      .map((l) => String((l as { text?: unknown }).text ?? ""))
      .join("");
    assert.match(output, /sandbox: workspace-write/);
    assert.match(output, /succeeded in \d+ms:\s*\nhi/);
    assert.ok(existsSync(t.agent.transcripts.codexSessions) && readdirSync(t.agent.transcripts.codexSessions).length);
  } finally {
    await t.cleanup();
  }
});

// With allowed hosts the sandbox has no network of its own: the scripted model server on this machine's 127.0.0.1
// is another loopback than the sandbox's, so the agent reaches its model only through the egress proxy.
for (const id of ["codex-acp", "claude-agent-acp"] as AgentId[]) {
  test(
    `${id} reaches its model through the egress proxy with --sandbox-hosts and finishes a turn`,
    { timeout: AGENT_TIMEOUT_MS, skip },
    async () => {
      const t = await setUp(id);
      try {
        const model = new URL(t.server.url).host;
        const r = await runAgentTurn(t, "approve-all", PROMPT, ["--sandbox-hosts", model, "--timeout", "100"]);
        const lines = jsonLines(r.stdout);
        const summary = lines.at(-1) ?? {};
        assert.equal(r.code, 0, `stderr: ${r.stderr.slice(-2000)}\nsummary: ${JSON.stringify(summary)}`);
        assert.match(r.stderr, /sandboxed \(bubblewrap\): .*egress: 1 host via proxy/);
        // the model's host is never refused; other hosts the agent tries on its own are, and are noted (codex-acp
        // looks up api.github.com and chatgpt.com in the background: CI saw both refused while the turn went through)
        const blocked = [...r.stderr.matchAll(/blocked by the sandbox: connect (\S+)/g)].map((m) => m[1]);
        assert.ok(!blocked.includes(model), `the model's host was refused: ${blocked.join(", ")}`);
        assert.equal(readFileSync(join(t.workspace, "hello.txt"), "utf8").trim(), "hi");
        assert.deepEqual(
          lines.filter((l) => l.type === "done").map((l) => l.stopReason),
          ["end_turn"],
        );
      } finally {
        await t.cleanup();
      }
    },
  );
}
