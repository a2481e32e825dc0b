// A detached Best of N finished by the thread host (#35), through the built CLI, a real host process and the stdio
// fake agent on a real repository: with no client attached after `run --worktrees --check CMD --detach` returns,
// the host follows both candidates, runs the check in each worktree (the check's parent is the host: it writes its
// $PPID) and lets the record go ranked; `worktrees compare` run right after `--detach` follows the host (it runs no
// check: one line per candidate in the check's log) and prints the table; a host SIGKILLed mid-check leaves an
// owner that is gone (a plain `host stop` before it is refused), its checks stopped by their guard, and `worktrees compare` picks the record up and finishes it.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { connectHost } from "../../../../src/core/host/client";
import { pidAlive } from "../../../../src/core/platform/file-lock";
import { homeLayout } from "../../../../src/core/store/paths";
import { newBestOfRecord, ownerHere, type BestOfRecord } from "../../../../src/core/worktree/best-of-record";
import { BestOfRecords } from "../../../../src/core/worktree/best-of-records";
import { FAKE_AGENT, runCli, startCli } from "../../../fixtures/cli/spawn-cli";
import { endSleep, hostEnv, hostPid, steering, stopHost } from "../../../fixtures/host/host-cli";
import { waitFor } from "../../../fixtures/spawner/wait";
import { withRepo } from "../../core/worktree/helpers";

type Json = Record<string, any>;

const record = (home: string, id: string): BestOfRecord =>
  (JSON.parse(readFileSync(homeLayout(home).bestOfFile, "utf8")) as { runs: BestOfRecord[] }).runs.find(
    (r) => r.id === id,
  )!;
const lines = (file: string): string[] =>
  existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];

/** `run --agent A --agent A --worktrees --check CHECK --detach PROMPTS`: the record's id and the two threads. */
async function detachBestOf(
  opts: { home: string; cwd: string; env: NodeJS.ProcessEnv },
  check: string,
  prompts: string[],
) {
  const res = await runCli(
    [
      "run",
      ...["--agent", FAKE_AGENT, "--agent", FAKE_AGENT, "--worktrees", "--permission", "approve-all", "--no-sandbox"],
      ...["--check", check, "--check-timeout", "120", "--detach", "--format", "json", ...prompts],
    ],
    opts,
  );
  assert.equal(res.code, 0, res.stderr);
  const out = JSON.parse(res.stdout) as { bestOf: string; threads: Json[] };
  return { id: out.bestOf, threads: out.threads.map((t) => t.threadId as string), stderr: res.stderr };
}

/** A test in a fresh repository with its own data home (`home`) and check log (`log`); its host stopped after. */
const inRepo = (fn: (t: { repo: string; dir: string; home: string; log: string }) => Promise<void>) => () =>
  withRepo({ "a.txt": "a\n" }, async (repo, dir) => {
    const home = join(dir, "home");
    try {
      await fn({ repo, dir, home, log: join(dir, "checks.log") });
    } finally {
      await stopHost(home);
    }
  });

test(
  "a detached Best of N with --check ends ranked with nobody watching: the host ran each check",
  inRepo(async ({ repo, home, log }) => {
    const { id, threads, stderr } = await detachBestOf(
      { home, cwd: repo, env: hostEnv() },
      `echo $PPID >> ${log} && grep -q hi hello.txt`,
      ["terminal echo hi > hello.txt"],
    );
    const host = hostPid(home);
    assert.ok(host, "the host runs");
    // nothing attached from here on: the host alone finishes it
    await waitFor(() => !!record(home, id).finishedAt, "the host ranked the Best of N", 120_000);
    const rec = record(home, id);
    assert.equal(rec.owner, null, "the host let the record go");
    assert.deepEqual(
      rec.candidates.map((c) => c.threadId),
      threads,
    );
    for (const c of rec.candidates) {
      assert.equal(c.agent?.ok, true, JSON.stringify(c));
      assert.deepEqual([c.check?.command, c.check?.exitCode], [rec.check, 0], "its check ran to its end");
    }
    assert.deepEqual(lines(log), [String(host), String(host)], "one check per candidate, each run by the host");
    assert.match(stderr, /the thread host, which then runs the check and ranks them/);
    // the host counted the Best of N as work: it idles out only after it (its idle time is 2 s here)
    await waitFor(() => !pidAlive(host), "the idle host leaves once the Best of N is done");
  }),
);

test(
  "worktrees compare right after --detach follows the host's Best of N and prints its table (it runs no check)",
  inRepo(async ({ repo, home, log }) => {
    const opts = { home, cwd: repo, env: hostEnv(steering) };
    const { id, threads } = await detachBestOf(opts, `echo $PPID >> ${log} && grep -q hi hello.txt`, [
      "sleep 60000",
      "terminal echo hi > hello.txt",
    ]);
    const compare = startCli(["worktrees", "compare", id, "--check-timeout", "5", "--format", "json"], opts);
    for (const t of threads) await endSleep(home, t, hostEnv());
    const r = await compare.done;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`the thread host finishes Best of N ${id}: following it`));
    // the host's checks keep the timeout run gave them: the flag says it does not change them
    assert.match(r.stderr, /--check-timeout does not change the host's checks \(they keep run's\)/);
    assert.match(r.stderr, /node#1: agent done \(end_turn\)/, "the progress notes, read from the record");
    assert.match(r.stderr, /node#2: check pass in /);
    const ranked = JSON.parse(r.stdout) as Json[];
    assert.deepEqual(ranked.map((c) => c.label).sort(), ["node#1", "node#2"]);
    for (const c of ranked) {
      assert.equal(c.status, "done");
      assert.deepEqual([c.check.command, c.check.exitCode], [record(home, id).check, 0]);
    }
    const host = String(hostPid(home));
    assert.deepEqual(lines(log), [host, host], "exactly one check per candidate, both the host's");
    assert.ok(record(home, id).finishedAt);
  }),
);

test(
  "the host SIGKILLed mid-check: its checks stop, and worktrees compare picks the Best of N up and finishes it",
  inRepo(async ({ repo, dir, home, log }) => {
    const go = join(dir, "go");
    const opts = { home, cwd: repo, env: hostEnv() };
    // the host's checks hang until killed; once `go` exists (after the kill) a check passes
    const check = `echo $$ >> ${log}; if [ -f ${go} ]; then grep -q hi hello.txt; else sleep 600; fi`;
    const { id } = await detachBestOf(opts, check, ["terminal echo hi > hello.txt"]);
    await waitFor(() => lines(log).length === 2, "both checks run in the host", 120_000);
    const host = hostPid(home)!;
    assert.equal(record(home, id).owner?.pid, host);
    assert.equal(record(home, id).owner?.role, "host");
    // a plain stop would cut the checks short: refused, naming the Best of N (before: the host stopped)
    const stop = await runCli(["host", "stop"], opts);
    assert.notEqual(stop.code, 0, stop.stdout);
    assert.match(stop.stderr, /1 Best of N being checked and ranked still run in the host; .*host stop --force/);
    assert.ok(pidAlive(host), "the host still runs");
    process.kill(host, "SIGKILL");
    await waitFor(() => !pidAlive(host), "the host is gone");
    const hung = lines(log).map(Number);
    await waitFor(() => hung.every((pid) => !pidAlive(pid)), "the dead host's checks were stopped by their guard");
    writeFileSync(go, "");
    const r = await runCli(["worktrees", "compare", id, "--format", "json"], opts);
    assert.equal(r.code, 0, r.stderr);
    const ranked = JSON.parse(r.stdout) as Json[];
    for (const c of ranked) {
      assert.equal(c.status, "done");
      assert.equal(c.check.exitCode, 0, "its check ran again, to its end");
    }
    assert.equal(lines(log).length, 4, "each check ran once more, in compare");
    const rec = record(home, id);
    assert.ok(rec.candidates.every((c) => c.check?.exitCode === 0));
    assert.notEqual(rec.owner?.pid, host, "compare took it over");
    assert.equal(rec.owner?.role, undefined);
  }),
);

test(
  "hostile: the host takes no Best of N whose check is not the one the client gives, nor one outside its folders",
  inRepo(async ({ repo, dir, home, log }) => {
    // a host that stays (its run sleeps until stopped)
    const opts = { home, cwd: repo, env: hostEnv(steering) };
    const r = await runCli(["run", "--agent", FAKE_AGENT, "--no-sandbox", "--detach", "sleep 60000"], opts);
    assert.equal(r.code, 0, r.stderr);
    const real = realpathSync(repo);
    const rec = newBestOfRecord({
      cwd: real,
      repo: real,
      base: "HEAD",
      prompt: "p",
      check: `echo ran >> ${log}`,
      candidates: [],
      owner: ownerHere(), // this test process: a live owner that has not handed it over
    });
    await new BestOfRecords(homeLayout(home).bestOfFile).add(rec);
    const elsewhere = join(dir, "elsewhere");
    mkdirSync(elsewhere);
    const ask = async (roots: string[], check?: string, from = ownerHere()) => {
      const conn = await connectHost({ home, client: "hostile", serves: { fs: false, roots } });
      assert.ok(conn);
      try {
        return await conn.request({ t: "best_of", bestOf: rec.id, from, ...(check !== undefined ? { check } : {}) });
      } finally {
        conn.close();
      }
    };
    await assert.rejects(ask([real], `touch ${join(dir, "pwned")}`), /check is not the one asked for/);
    await assert.rejects(ask([real]), /check is not the one asked for/, "no check given is not the record's either");
    await assert.rejects(ask([elsewhere], rec.check), /repository .* is not one of this client's folders: refused/);
    const stranger = { ...ownerHere(), pid: 1 }; // alive, and not the record's owner
    await assert.rejects(ask([real], rec.check, stranger), /followed by another process: not handed over/);
    assert.deepEqual(record(home, rec.id).owner, rec.owner, "nobody took it");
    assert.equal(existsSync(join(dir, "pwned")), false, "the command the client gave never ran");
  }),
);
