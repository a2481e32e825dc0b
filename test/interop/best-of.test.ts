// #25 best of N, proof: ONE `acp-threads run --agent codex-acp --agent claude-agent-acp --worktrees --check CMD
// --format json` runs real codex-acp and claude-agent-acp at the same time, each in its own worktree of one
// repository, on one prompt. Each agent has a scripted model server of its own that words the prompt for it
// (`substitute`), so codex writes "from codex" and claude "from claude"; the check (grep codex) passes in one
// worktree and fails in the other. The JSON is asserted (both candidates, files/+/-, check exit codes 0 and 1,
// the tokens each agent reported, durations), then the winner is applied and the other discarded.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { cleanEnv, makeRunDir, prepareAgentEnv, type AgentEnv } from "../fixtures/agent-env/index";
import { killProcessesWithHome } from "../fixtures/agent-env/procs";
import { startModelServer } from "../fixtures/model-server/index";
import { AGENT_TIMEOUT_MS, runCli, skipUnlessInstalled, startCli, type Interop } from "./harness";

type Candidate = Record<string, any>;

const agentLine = (a: AgentEnv) => [a.command, ...a.args].map((w) => (/\s/.test(w) ? JSON.stringify(w) : w)).join(" ");

test(
  "best of N: codex-acp and claude-agent-acp at once in two worktrees; the check passes in one; apply it, discard the other",
  { timeout: AGENT_TIMEOUT_MS * 2, skip: skipUnlessInstalled },
  async () => {
    const runDir = makeRunDir("interop-bestof-");
    const repo = join(runDir, "ws");
    const dataHome = join(runDir, "acp-threads");
    mkdirSync(repo);
    mkdirSync(dataHome);
    const g = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: repo, stdio: "pipe" });
    writeFileSync(join(repo, "README.md"), "demo\n");
    g("init", "-q");
    g("add", "-A");
    g("commit", "-qm", "seed");
    const forCodex = await startModelServer({ workspace: repo });
    const forClaude = await startModelServer({ workspace: repo });
    // one home for both agents (their configs do not overlap), each pointed at its own server
    const codex = prepareAgentEnv("codex-acp", { modelUrl: forCodex.url, workspace: repo, runDir });
    const claude = prepareAgentEnv("claude-agent-acp", { modelUrl: forClaude.url, workspace: repo, runDir });
    const t = {
      agent: { ...codex, env: { ...cleanEnv(), ...codex.vars, ...claude.vars } },
      dataHome,
      workspace: repo,
    } as unknown as Interop;
    try {
      forCodex.configure({ substitute: { AGENT: "codex" } });
      forClaude.configure({ substitute: { AGENT: "claude" } });
      // each model holds its first answer until both agents are mid-turn: they work at the same time
      for (const s of [forCodex, forClaude]) s.configure({ stall: { count: 1, afterEvents: 0, withTools: true } });
      const check = "grep -q codex hello.txt";
      const run = startCli(t, [
        "run",
        "--agent",
        agentLine(codex),
        "--agent",
        agentLine(claude),
        "--worktrees",
        "--permission",
        "approve-all",
        "--check",
        check,
        "--timeout",
        "100",
        "--format",
        "json",
        "--cwd",
        repo,
        "--",
        "create hello.txt containing from AGENT",
      ]);
      let exited = false;
      void run.result.then(() => (exited = true));
      while (!exited && (forCodex.stats().faults.stalls < 1 || forClaude.stats().faults.stalls < 1)) await sleep(50);
      assert.equal(exited, false, "both agents were mid-turn at the same time");
      for (const s of [forCodex, forClaude]) s.releaseStalls();
      const res = await run.result;
      assert.equal(res.code, 0, res.stderr.slice(-3000));
      const list = JSON.parse(res.stdout) as Candidate[];
      assert.equal(list.length, 2, res.stdout);
      const [win, lose] = list;
      assert.equal(win!.label, "codex-acp#1", "the passed check ranks first");
      assert.equal(lose!.label, "claude-agent-acp#1");
      for (const c of list) {
        assert.equal(c.status, "done", `${c.label}: ${c.error ?? ""}\n${res.stderr.slice(-2000)}`);
        assert.equal(c.repo, repo);
        assert.deepEqual(
          c.files.map((f: Candidate) => [f.path, f.change, f.added, f.removed]),
          [["hello.txt", "added", 1, 0]],
        );
        assert.deepEqual([c.added, c.removed], [1, 0]);
        assert.ok(c.durationMs > 0);
        assert.ok(c.usage?.totalTokens > 0, `${c.label} reports its tokens: ${JSON.stringify(c.usage)}`);
        assert.ok(c.answer.length > 0);
      }
      assert.notEqual(win!.worktree, lose!.worktree);
      assert.equal(readFileSync(join(win!.worktree, "hello.txt"), "utf8").trim(), "from codex");
      assert.equal(readFileSync(join(lose!.worktree, "hello.txt"), "utf8").trim(), "from claude");
      assert.deepEqual(
        [win!.check.command, win!.check.exitCode, lose!.check.command, lose!.check.exitCode],
        [check, 0, check, 1],
      );
      assert.equal(existsSync(join(repo, "hello.txt")), false, "the repository is untouched");
      assert.match(res.stderr, /codex-acp#1: check pass/);
      assert.match(res.stderr, /claude-agent-acp#1: check fail \(1\)/);

      const cli = (...args: string[]) => runCli(t, args);
      const listed = JSON.parse((await cli("worktrees", "list", "--format", "json")).stdout) as Candidate[];
      assert.deepEqual(listed.map((e) => e.threadId).sort(), [win!.threadId, lose!.threadId].sort());
      const applied = await cli("worktrees", "apply", win!.threadId);
      assert.equal(applied.code, 0, applied.stderr);
      assert.equal(readFileSync(join(repo, "hello.txt"), "utf8").trim(), "from codex");
      const discarded = await cli("worktrees", "discard", lose!.threadId, "--force");
      assert.equal(discarded.code, 0, discarded.stderr);
      assert.equal(existsSync(lose!.worktree), false);
      assert.equal(existsSync(win!.worktree), true, "the applied worktree stays until discarded");
    } finally {
      killProcessesWithHome(codex.home);
      await forCodex.close();
      await forClaude.close();
      rmSync(runDir, { recursive: true, force: true });
    }
  },
);
