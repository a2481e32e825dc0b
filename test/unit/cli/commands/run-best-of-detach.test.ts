// `run --agent A --agent B --worktrees --check CMD --detach` (#35 best of N in the thread host) through the built
// CLI, a real host process and the stdio fake agent on a real repository: the command returns while both candidates
// still run (their turns sleep until steered), with their threads and the record's id; a candidate whose agent is
// not installed fails alone (its worktree removed); `attach` follows each candidate; `worktrees compare` waits for
// both while the host runs the check in each worktree and records both ends and checks (run-best-of-hosted.test.ts).
// Hostile: a planted host folder (the host unreachable) and a candidate whose agent kills the host while the
// candidates are handed over: a clear error, and no worktree is left that no thread holds.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { connectHost } from "../../../../src/core/host/client";
import { hostPlace } from "../../../../src/core/host/door";
import { homeLayout } from "../../../../src/core/store/paths";
import type { BestOfRecord } from "../../../../src/core/worktree/best-of-record";
import { worktreesDirOf } from "../../../../src/core/worktree/layout";
import { FAKE_AGENT, runCli, startCli } from "../../../fixtures/cli/spawn-cli";
import { endSleep, hostEnv, steering, stopHost } from "../../../fixtures/host/host-cli";
import { withRepo } from "../../core/worktree/helpers";

type Json = Record<string, any>;

const records = (home: string): BestOfRecord[] =>
  (JSON.parse(readFileSync(homeLayout(home).bestOfFile, "utf8")) as { runs: BestOfRecord[] }).runs;
const worktrees = (repo: string): string[] =>
  existsSync(worktreesDirOf(repo)) ? readdirSync(worktreesDirOf(repo)) : [];

test("run --detach best of 2 returns while both run; attach follows each; worktrees compare waits for the checks", () =>
  withRepo({ "a.txt": "a\n" }, async (repo, dir) => {
    const home = join(dir, "home");
    const opts = { home, cwd: repo, env: hostEnv(steering) };
    try {
      const missing = join(dir, "no-such-agent");
      const res = await runCli(
        [
          "run",
          ...["--agent", FAKE_AGENT, "--agent", FAKE_AGENT, "--agent", missing],
          ...["--worktrees", "--permission", "approve-all", "--no-sandbox", "--check", "grep -q hi hello.txt"],
          ...["--detach", "--format", "json", "sleep 60000", "terminal echo hi > hello.txt"],
        ],
        opts,
      );
      assert.equal(res.code, 0, res.stderr);
      const out = JSON.parse(res.stdout) as { bestOf: string; threads: Json[] };
      assert.deepEqual(
        out.threads.map((t) => t.label),
        ["node#1", "node#2", "no-such-agent#1"],
      );
      const [one, two, bad] = out.threads as [Json, Json, Json];
      assert.ok(one.threadId && two.threadId && one.threadId !== two.threadId);
      assert.equal(bad.threadId, null);
      assert.match(bad.error, /no-such-agent/, "the candidate that could not start says why");
      assert.match(res.stderr, new RegExp(`worktrees compare ${out.bestOf}`));

      // returned while both still run (their first turn sleeps until steered)
      const conn = await connectHost({ home, client: "test" });
      assert.ok(conn);
      const st = await conn.request({ t: "status" });
      conn.close();
      const running = st.t === "status" ? st.status.sessions.filter((s) => s.state === "working") : [];
      assert.deepEqual(running.map((s) => s.threadId).sort(), [one.threadId, two.threadId].sort());
      assert.equal(worktrees(repo).length, 2, "the candidate that did not start left no worktree");
      const rec = records(home).find((r) => r.id === out.bestOf)!;
      assert.equal(rec.check, "grep -q hi hello.txt");
      assert.equal(rec.startedFrom, "terminal", "a window that picks it up says where it came from");
      assert.deepEqual(
        rec.candidates.map((c) => c.threadId),
        [one.threadId, two.threadId, null],
      );

      const attached = [one, two].map((t) => startCli(["attach", t.threadId, "--follow"], opts));
      const compare = startCli(["worktrees", "compare", out.bestOf, "--format", "json"], opts);
      for (const t of [one, two]) await endSleep(home, t.threadId, hostEnv());
      for (const a of attached) {
        const r = await a.done;
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /sleeping/);
        assert.match(r.stdout, /echo hi > hello\.txt \(completed\)/, "attach followed the candidate to its run's end");
      }
      const compared = await compare.done;
      assert.equal(compared.code, 0, compared.stderr);
      const ranked = JSON.parse(compared.stdout) as Json[];
      assert.deepEqual(ranked.map((c) => c.label).slice(2), ["no-such-agent#1"]);
      for (const c of ranked.slice(0, 2)) {
        assert.equal(c.status, "done");
        assert.deepEqual([c.check.command, c.check.exitCode], ["grep -q hi hello.txt", 0], "its check ran");
        assert.deepEqual(
          c.files.map((f: Json) => f.path),
          ["hello.txt"],
        );
      }
      const after = records(home).find((r) => r.id === out.bestOf)!;
      for (const c of after.candidates.slice(0, 2)) {
        assert.equal(c.agent?.ok, true, JSON.stringify(c));
        assert.equal(c.check?.exitCode, 0, "the check's result is in the record");
      }
      assert.equal(after.candidates[2]!.agent?.ok, false);
      assert.equal(after.candidates[2]!.worktree, null);
    } finally {
      await stopHost(home);
    }
  }));

test("best of N --detach with the host unreachable, or the host killed by a candidate: an error and no orphan worktree", () =>
  withRepo({ "a.txt": "a\n" }, async (repo, dir) => {
    const home = join(dir, "home");
    const opts = { home, cwd: repo, env: hostEnv() };
    const bestOf = (agents: string[]) =>
      runCli(["run", ...agents.flatMap((a) => ["--agent", a]), "--worktrees", "--no-sandbox", "--detach", "go"], opts);
    try {
      // a host folder another user could have planted: the CLI does not talk through it, and makes nothing
      const hosts = dirname(hostPlace(home).dir);
      mkdirSync(hosts, { recursive: true });
      chmodSync(hosts, 0o777);
      const planted = await bestOf([FAKE_AGENT, FAKE_AGENT]);
      assert.notEqual(planted.code, 0);
      assert.match(planted.stderr, /the thread host's folder .* is open to others/);
      assert.deepEqual(worktrees(repo), [], "no worktree was made");
      assert.equal(existsSync(homeLayout(home).bestOfFile), false, "no Best of N was recorded");
      chmodSync(hosts, 0o700);

      // the first candidate's agent kills the host (its parent): the others are never started, their worktrees go
      const killer = `/bin/sh -c "kill -9 $PPID"`;
      const killed = await bestOf([killer, FAKE_AGENT, FAKE_AGENT]);
      assert.equal(killed.code, 1, killed.stderr);
      assert.match(killed.stderr, /the thread host stopped while the candidates were handed to it/);
      assert.deepEqual(worktrees(repo), [], "no worktree is left that no thread holds");
      const [rec] = records(home);
      assert.ok(rec?.closedAt, "the record is closed: nothing of it runs");
      assert.ok(rec.candidates.every((c) => c.worktree === null && c.agent?.ok === false));
    } finally {
      await stopHost(home);
    }
  }));

test("best of N --detach interrupted (Ctrl-C) while it prepares: every worktree left is a started candidate's", () =>
  withRepo({ "a.txt": "a\n" }, async (repo, dir) => {
    const home = join(dir, "home");
    try {
      const args = ["run", "--agent", FAKE_AGENT, "--runs", "6", "--worktrees", "--no-sandbox", "--detach", "go"];
      const run = startCli(args, { home, cwd: repo, env: hostEnv() });
      let said = "";
      const hear = (d: Buffer) => {
        said += String(d);
        if (!said.includes("each in a worktree of its own")) return;
        run.child.stderr!.off("data", hear);
        run.child.kill("SIGINT"); // once, before the first worktree is made
      };
      run.child.stderr!.on("data", hear);
      const r = await run.done;
      const rec = records(home)[0]!;
      const started = rec.candidates.filter((c) => c.threadId);
      assert.equal(r.code, started.length === 6 ? 0 : 130, r.stderr);
      assert.deepEqual(
        worktrees(repo).sort(),
        started.map((c) => c.worktree!.path.split("/").at(-1)).sort(),
        "a worktree no thread holds was removed",
      );
      for (const c of rec.candidates.filter((x) => !x.threadId)) {
        assert.equal(c.worktree, null);
        assert.equal(c.agent?.error, "interrupted before it started");
      }
    } finally {
      await stopHost(home);
    }
  }));

test("best of N --detach refuses what it cannot do, before anything starts", () =>
  withRepo({ "a.txt": "a\n" }, async (repo, dir) => {
    const home = join(dir, "home");
    const run = (...args: string[]) =>
      runCli(["run", "--agent", FAKE_AGENT, "--agent", FAKE_AGENT, "--detach", ...args, "go"], { home, cwd: repo });
    for (const [args, why] of [
      [["--permission", "ask"], /--permission ask does not go with best of N/],
      [["--concurrency", "1"], /--concurrency does not go with --detach/],
    ] as const) {
      const r = await run(...args);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, why);
    }
    assert.deepEqual(worktrees(repo), []);
    assert.equal(existsSync(hostPlace(home).dir), false, "no host was started");
  }));
