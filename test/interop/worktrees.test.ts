// #25 proof: real codex-acp and claude-agent-acp work AT THE SAME TIME in two worktrees of one repository through
// `acp-threads run --worktree`; each writes its own hello.txt (the repository sees neither), a check command
// passes in one worktree and fails in the other, the winner is applied to the repository through the ledger,
// the other is discarded.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  AGENT_TIMEOUT_MS,
  jsonLines,
  runArgs,
  runCli,
  setUp,
  skipUnlessInstalled,
  startCli,
  type Interop,
} from "./harness";

function seedRepo(repo: string): void {
  const g = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: repo, stdio: "pipe" });
  writeFileSync(join(repo, "README.md"), "demo\n");
  g("init", "-q");
  g("add", "-A");
  g("commit", "-qm", "seed");
}

/** `run --worktree` of `t`'s agent on `repo` (its own model server and agent env). */
function startIn(t: Interop, repo: string, prompt: string) {
  const args = runArgs(t, "approve-all", prompt, ["--worktree", "--timeout", "100"]);
  args[args.indexOf("--cwd") + 1] = repo;
  return startCli(t, args);
}

test(
  "codex-acp and claude-agent-acp in two worktrees of one repository at once; check, apply one, discard the other",
  { timeout: AGENT_TIMEOUT_MS * 2, skip: skipUnlessInstalled },
  async () => {
    const codex = await setUp("codex-acp");
    const claude = await setUp("claude-agent-acp");
    try {
      const repo = codex.workspace;
      seedRepo(repo);
      claude.dataHome = codex.dataHome; // one data home: one user's threads
      // each model holds its first answer until both agents are in the middle of their turns: they work at once
      for (const t of [codex, claude]) t.server.configure({ stall: { count: 1, afterEvents: 0, withTools: true } });
      const runA = startIn(codex, repo, "create hello.txt containing from codex");
      const runB = startIn(claude, repo, "create hello.txt containing from claude");
      let exited = false;
      void Promise.race([runA.result, runB.result]).then(() => (exited = true));
      while (!exited && (codex.server.stats().faults.stalls < 1 || claude.server.stats().faults.stalls < 1))
        await sleep(50);
      assert.equal(exited, false, "both agents were mid-turn at the same time");
      for (const t of [codex, claude]) t.server.releaseStalls();
      const [a, b] = await Promise.all([runA.result, runB.result]);
      const sa = jsonLines(a.stdout).at(-1) ?? {};
      const sb = jsonLines(b.stdout).at(-1) ?? {};
      assert.equal(a.code, 0, `codex: ${a.stderr.slice(-1500)}\n${JSON.stringify(sa)}`);
      assert.equal(b.code, 0, `claude: ${b.stderr.slice(-1500)}\n${JSON.stringify(sb)}`);
      const wa = (sa.worktree as { path: string }).path;
      const wb = (sb.worktree as { path: string }).path;
      assert.notEqual(wa, wb);
      assert.equal(readFileSync(join(wa, "hello.txt"), "utf8").trim(), "from codex");
      assert.equal(readFileSync(join(wb, "hello.txt"), "utf8").trim(), "from claude");
      assert.equal(existsSync(join(repo, "hello.txt")), false, "the repository is untouched");
      const cli = (...args: string[]) => runCli(codex, args);
      const listed = JSON.parse((await cli("worktrees", "list", "--format", "json")).stdout) as {
        threadId: string;
        state: { files: { path: string; change: string }[] };
      }[];
      assert.equal(listed.length, 2);
      for (const e of listed)
        assert.deepEqual(
          e.state.files.map((f) => [f.path, f.change]),
          [["hello.txt", "added"]],
        );
      for (const s of [sa, sb]) {
        const changes = JSON.parse((await cli("changes", String(s.threadId), "--format", "json")).stdout);
        assert.deepEqual(
          changes.ops.flatMap((o: { files: { rel: string }[] }) => o.files.map((f) => f.rel)),
          ["hello.txt"],
        );
      }

      // the check: passes in codex's worktree, fails in claude's
      const check = ["exec", "--", "sh", "-c", "grep -q codex hello.txt"];
      const ca = await runCli(codex, ["exec", "--cwd", wa, ...check.slice(1)]);
      const cb = await runCli(codex, ["exec", "--cwd", wb, ...check.slice(1)]);
      assert.deepEqual([ca.code, cb.code], [0, 1]);

      const applied = await cli("worktrees", "apply", String(sa.threadId));
      assert.equal(applied.code, 0, applied.stderr);
      assert.equal(readFileSync(join(repo, "hello.txt"), "utf8").trim(), "from codex");
      const discarded = await cli("worktrees", "discard", String(sb.threadId), "--force");
      assert.equal(discarded.code, 0, discarded.stderr);
      assert.equal(existsSync(wb), false);
      assert.equal(existsSync(wa), true, "the applied worktree stays until discarded");
    } finally {
      await claude.cleanup();
      await codex.cleanup();
    }
  },
);
