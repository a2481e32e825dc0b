// `run --agent A [--agent B] --runs N --worktrees --check CMD` (#25 best of N) through the built CLI with the stdio
// fake agent on a real repository: three runs of one agent at once, each a thread in its own worktree (listed by
// `threads list` and `worktrees list`), a check per worktree, a candidate whose agent fails to start that costs
// the others nothing, the JSON and the table, exit 1 when no candidate finished, the flags best of N refuses.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { FAKE_AGENT, runCli } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { g, withRepo } from "../../core/worktree/helpers";

type Candidate = Record<string, any>;

test("run --runs 3 of a good agent and of one that fails to start: all at once in worktrees, checks, JSON best first", () =>
  withRepo({ "a.txt": "a\n" }, async (repo, dir) => {
    const home = join(dir, "home");
    const cli = (...args: string[]) => runCli(args, { home, cwd: repo });
    const res = await cli(
      "run",
      "--agent",
      FAKE_AGENT,
      "--runs",
      "3",
      "--agent",
      `${FAKE_AGENT} crash-init`,
      "--worktrees",
      "--permission",
      "approve-all",
      "--check",
      "grep -q hi hello.txt",
      "--format",
      "json",
      "terminal echo hi > hello.txt",
    );
    assert.equal(res.code, 0, res.stderr);
    const list = JSON.parse(res.stdout) as Candidate[];
    assert.equal(list.length, 6, "--runs applies to each --agent");
    assert.deepEqual(
      list.map((c) => c.rank),
      [1, 2, 3, 4, 5, 6],
    );
    const done = list.filter((c) => c.status === "done");
    const failed = list.filter((c) => c.status === "failed");
    assert.equal(done.length, 3, JSON.stringify(list, null, 1));
    assert.deepEqual(done.map((c) => c.label).sort(), ["node#1", "node#2", "node#3"]);
    assert.deepEqual(
      list
        .slice(3)
        .map((c) => c.label)
        .sort(),
      ["node#4", "node#5", "node#6"],
      "the failed candidates rank last (a command line of the same program is numbered on)",
    );
    for (const f of failed) {
      assert.equal(f.threadId, null);
      assert.equal(f.worktree, null, "its worktree was removed");
      assert.match(f.error, /cannot start fake agent|exit|initialize/i);
    }
    assert.equal(list[0]!.leader, "fastest", "three passed checks with the same change: the first is only the fastest");
    assert.ok(list.slice(1).every((c) => c.leader === null));
    assert.ok(
      list.every((c) => c.cost === null),
      "the fake agent reported no cost",
    );
    const paths = new Set(done.map((c) => c.worktree as string));
    assert.equal(paths.size, 3);
    for (const c of done) {
      assert.equal(c.agent, "node");
      assert.equal(c.stopReason, "end_turn");
      assert.equal(c.base, g(repo, "rev-parse", "HEAD").trim());
      assert.equal(c.repo, repo);
      assert.deepEqual(
        c.files.map((f: Candidate) => [f.path, f.change, f.added, f.removed]),
        [["hello.txt", "added", 1, 0]],
      );
      assert.deepEqual([c.added, c.removed], [1, 0]);
      assert.deepEqual([c.check.command, c.check.exitCode], ["grep -q hi hello.txt", 0]);
      assert.equal(typeof c.durationMs, "number");
      assert.match(c.answer, /^exit 0:/);
      assert.equal(readFileSync(join(c.worktree, "hello.txt"), "utf8"), "hi\n");
    }
    assert.equal(existsSync(join(repo, "hello.txt")), false, "the repository is untouched");
    // progress on stderr, prefixed with each candidate
    assert.match(res.stderr, /acp-threads run: 6 candidates \(node#1, node#2, node#3, node#4, node#5, node#6\) from /);
    for (const l of ["node#1", "node#2", "node#3"]) assert.match(res.stderr, new RegExp(`: ${l}: check pass`));
    assert.match(res.stderr, /: node#4: failed after /);

    // a worktree thread belongs to the repository it was made from: `threads list` run there shows each candidate
    // (as the sessions tree does), with or without --all
    const threads = JSON.parse((await cli("threads", "list", "--all", "--format", "json")).stdout) as Candidate[];
    assert.deepEqual(threads.map((t) => t.id).sort(), done.map((c) => c.threadId).sort(), "each candidate is a thread");
    const here = JSON.parse((await cli("threads", "list", "--format", "json")).stdout) as Candidate[];
    assert.deepEqual(
      here.map((t) => t.id).sort(),
      done.map((c) => c.threadId).sort(),
      "`threads list` in the repository lists its worktrees' threads",
    );
    const worktrees = JSON.parse((await cli("worktrees", "list", "--format", "json")).stdout) as Candidate[];
    assert.deepEqual(worktrees.map((w) => w.worktree.path).sort(), [...paths].sort());
    for (const c of done) {
      const changes = JSON.parse((await cli("changes", c.threadId, "--format", "json")).stdout);
      assert.deepEqual(
        changes.ops.flatMap((o: { files: { rel: string }[] }) => o.files.map((f) => f.rel)),
        ["hello.txt"],
        "the ledger recorded each candidate's change",
      );
    }
    const applied = await cli("worktrees", "apply", done[0]!.threadId);
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(readFileSync(join(repo, "hello.txt"), "utf8"), "hi\n");
    for (const c of done.slice(1)) {
      const d = await cli("worktrees", "discard", c.threadId, "--force");
      assert.equal(d.code, 0, d.stderr);
      assert.equal(existsSync(c.worktree), false);
    }
  }));

test("run best of N, text: the table (a '*' on passed checks, fits 80 columns), next steps; exit 1 when none finished", () =>
  withRepo({ "a.txt": "a\n" }, async (repo, dir) => {
    const home = join(dir, "home");
    const cli = (...args: string[]) => runCli(args, { home, cwd: repo });
    const res = await cli(
      "run",
      "--agent",
      FAKE_AGENT,
      "--runs",
      "2",
      "--permission",
      "approve-reads",
      "--check",
      "test -f hello.txt",
      "terminal echo hi > hello.txt",
    );
    assert.equal(res.code, 1, "the policy refused the terminal: neither candidate finished");
    const lines = res.stdout.split("\n");
    assert.match(lines[0]!, /^ +CANDIDATE +STATUS +FILES +\+\/- +CHECK +TOKENS +COST +TIME$/);
    assert.match(lines[1]!, /^ +node#[12] +failed +0 +\+0 -0 +fail \(1\) +- +- +\d+s$/);
    assert.doesNotMatch(res.stdout, /^(best|fastest): /m, "no candidate finished: none leads");
    for (const l of lines) assert.ok(l.length <= 80, `over 80 columns: ${l}`);
    assert.match(res.stdout, /note {5}1 permission request was refused by --permission approve-reads/);
    assert.match(res.stdout, /\nnext: bring one candidate's changes into /);
    assert.match(res.stdout, /acp-threads worktrees discard [\w-]+ --force {4}# node#2/);

    const ok = await cli("run", "--agent", FAKE_AGENT, "--worktrees", "--check", "true", "stream 2");
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout.split("\n")[1]!, /^\* +node#1 +end_turn +0 +\+0 -0 +pass +- +- +\d+s$/);
    assert.match(ok.stdout, /answer {3}chunk 0 chunk 1/);
  }));

test("run best of N: each candidate's cost as its agent reported it (JSON and table); the leader of a tie is 'fastest'", () =>
  withRepo({ "a.txt": "a\n" }, async (repo, dir) => {
    const home = join(dir, "home");
    const cli = (...args: string[]) => runCli(args, { home, cwd: repo });
    const res = await cli(
      "run",
      "--agent",
      FAKE_AGENT,
      "--runs",
      "2",
      "--worktrees",
      "--format",
      "json",
      "cost 10 5 0.02",
    );
    assert.equal(res.code, 0, res.stderr);
    const list = JSON.parse(res.stdout) as Candidate[];
    for (const c of list) {
      assert.deepEqual(c.cost, [{ currency: "USD", amount: 0.02 }]);
      assert.equal(c.usage.totalTokens, 15);
    }
    assert.deepEqual(
      list.map((c) => c.leader),
      ["fastest", null],
      "neither changed a file and there is no check: speed is the only difference",
    );
    const text = await cli("run", "--agent", FAKE_AGENT, "--runs", "2", "--worktrees", "cost 10 5 0.02");
    assert.equal(text.code, 0, text.stderr);
    const rows = text.stdout.split("\n");
    for (const row of rows.slice(1, 3)) assert.match(row, /^ +node#[12] +end_turn +0 +\+0 -0 +- +15 +\$0\.02 +\d+s$/);
    assert.match(rows[3]!, /^fastest: node#[12] \(same result, faster\)$/);
  }));

test("run best of N: outside git, --thread with several agents, a missing PROMPT are usage errors (exit 2)", () =>
  withTmpDir("acp-bo-cli-", async (dir) => {
    const home = join(dir, "home");
    const cli = (...args: string[]) => runCli(args, { home, cwd: dir });
    const plain = await cli("run", "--agent", FAKE_AGENT, "--agent", FAKE_AGENT, "hi");
    assert.equal(plain.code, 2);
    assert.match(plain.stderr, /is not in a git repository: best of N runs each candidate in a git worktree/);
    const withThread = await cli("run", "--agent", FAKE_AGENT, "--runs", "2", "--thread", "x", "hi");
    assert.equal(withThread.code, 2);
    assert.match(withThread.stderr, /--thread does not go with best of N/);
    const noPrompt = await cli("run", "--agent", FAKE_AGENT, "--runs", "2");
    assert.equal(noPrompt.code, 2);
    assert.match(noPrompt.stderr, /missing argument: PROMPT/);
    const unknown = await cli("run", "--agent", "no-such-agent", "--agent", FAKE_AGENT, "hi");
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown agent 'no-such-agent'/);
  }));
