// `run --worktree`, `exec --worktree` and `worktrees list|apply|discard` through the built CLI with the stdio fake
// agent, on a real repository: the agent works in the worktree (the repository is untouched until apply), the
// thread records its worktree and its changes, apply is undoable, discard asks.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { FAKE_AGENT, runCli } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { g, withRepo } from "../../core/worktree/helpers";
import { ThreadStore } from "../../../../src/core/store/thread-store";

const SEED = { "a.txt": "a\n", ".gitignore": ".env\n", ".worktreeinclude": ".env\n" };
const summaryOf = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, any>;

/** `run --worktree` of the fake agent with `task`, every permission allowed, JSON output. */
const runInWorktree = (cli: (...args: string[]) => ReturnType<typeof runCli>, task: string) =>
  cli("run", "--worktree", "--agent", FAKE_AGENT, "--permission", "approve-all", "--format", "json", task);

test("run --worktree: the agent works in a worktree; list, changes, apply (undoable), discard", () =>
  withRepo(SEED, async (repo, dir) => {
    const home = join(dir, "home");
    const cli = (...args: string[]) => runCli(args, { home, cwd: repo });
    const res = await runInWorktree(cli, "terminal echo hi > hello.txt; echo more >> a.txt; pwd");
    assert.equal(res.code, 0, res.stderr);
    const summary = summaryOf(res.stdout);
    const wt = summary.worktree.path as string;
    assert.match(res.stderr, new RegExp(`worktree ${wt} \\(base \\w{10}\\)`));
    assert.equal(wt.startsWith(join(dir, ".repo.worktrees") + "/"), true);
    assert.match(res.stdout, new RegExp(`exit 0: ${wt}\\\\r?\\\\n`), "the terminal ran in the worktree");
    assert.equal(readFileSync(join(wt, "hello.txt"), "utf8"), "hi\n");
    assert.equal(existsSync(join(repo, "hello.txt")), false, "the repository is untouched");
    const id = summary.threadId as string;

    const shown = JSON.parse((await cli("threads", "show", id, "--format", "json")).stdout);
    assert.deepEqual(shown.metadata.worktree, summary.worktree);
    assert.equal(shown.metadata.cwd, wt);
    assert.match(
      (await cli("threads", "show", id)).stdout,
      new RegExp(`\\nworktree ${wt} {2}of ${repo} {2}base \\w{10}\\n`),
    );
    const changes = JSON.parse((await cli("changes", id, "--format", "json")).stdout);
    assert.deepEqual(changes.ops[0].files.map((f: { rel: string }) => f.rel).sort(), ["a.txt", "hello.txt"]);

    const listed = JSON.parse((await cli("worktrees", "list", "--format", "json")).stdout);
    assert.equal(listed.length, 1);
    assert.equal(listed[0].threadId, id);
    assert.deepEqual(
      listed[0].state.files.map((f: { path: string; change: string }) => [f.path, f.change]),
      [
        ["a.txt", "modified"],
        ["hello.txt", "added"],
      ],
    );
    assert.match((await cli("worktrees", "list")).stdout, /2 files \+2 -0 /);

    const dry = await cli("worktrees", "apply", id, "--dry-run");
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /write {4}a\.txt\n {2}create {3}hello\.txt\n/);
    assert.equal(existsSync(join(repo, "hello.txt")), false);
    const applied = await cli("worktrees", "apply", id);
    assert.equal(applied.code, 0, applied.stderr);
    const op = /recorded as (apply-\w+)/.exec(applied.stdout)![1]!;
    assert.equal(readFileSync(join(repo, "hello.txt"), "utf8"), "hi\n");
    assert.equal(readFileSync(join(repo, "a.txt"), "utf8"), "a\nmore\n");
    const undo = await cli("restore", id, "--op", op);
    assert.equal(undo.code, 0, undo.stderr);
    assert.equal(existsSync(join(repo, "hello.txt")), false);
    assert.equal(readFileSync(join(repo, "a.txt"), "utf8"), "a\n");
    // changes names the restore that took the apply back, as it does for a turn
    const restoreOp = /(restore-\w+)/.exec(undo.stdout)?.[1];
    assert.ok(restoreOp, undo.stdout);
    assert.match((await cli("changes", id)).stdout, new RegExp(`apply ${op} .* restored by ${restoreOp}  `));
    const afterRestore = JSON.parse((await cli("changes", id, "--format", "json")).stdout);
    assert.equal(afterRestore.ops.find((o: { op: string }) => o.op === op).restoredBy, restoreOp);

    const refused = await cli("worktrees", "discard", id);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /confirm with --force \(stdin is not a terminal to ask\)/);
    assert.equal(existsSync(wt), true);
    const discarded = await cli("worktrees", "discard", id, "--force");
    assert.equal(discarded.code, 0, discarded.stderr);
    assert.equal(existsSync(wt), false);
    assert.doesNotMatch(g(repo, "worktree", "list"), /\.repo\.worktrees/);
    assert.equal(JSON.parse((await cli("threads", "show", id, "--format", "json")).stdout).metadata.worktree, null);
    assert.match((await cli("worktrees", "list")).stdout, /no thread has a worktree/);
    const gone = await cli("worktrees", "apply", id);
    assert.notEqual(gone.code, 0);
    assert.match(gone.stderr, /has no worktree/);
  }));

test("exec --worktree runs the command in a worktree and its thread records it; a folder deleted by hand", () =>
  withRepo(SEED, async (repo, dir) => {
    const home = join(dir, "home");
    const cli = (...args: string[]) => runCli(args, { home, cwd: repo });
    const res = await cli("exec", "--worktree", "--format", "json", "--", "sh", "-c", "echo x > made.txt; pwd");
    assert.equal(res.code, 0, res.stderr);
    const exit = JSON.parse(res.stdout.trim().split("\n").at(-1)!);
    const wt = exit.run.worktree.path as string;
    assert.equal(readFileSync(join(wt, "made.txt"), "utf8"), "x\n");
    assert.equal(existsSync(join(repo, "made.txt")), false);
    const id = exit.run.threadId as string;
    const meta = JSON.parse((await cli("threads", "show", id, "--format", "json")).stdout).metadata;
    assert.equal(meta.worktree.path, wt);
    const changes = JSON.parse((await cli("changes", id, "--format", "json")).stdout);
    assert.deepEqual(
      changes.ops[0].files.map((f: { rel: string }) => f.rel),
      ["made.txt"],
    );

    rmSync(wt, { recursive: true, force: true });
    assert.match((await cli("worktrees", "list")).stdout, /gone \(folder deleted; 'worktrees discard' forgets it\)/);
    const apply = await cli("worktrees", "apply", id);
    assert.notEqual(apply.code, 0);
    assert.match(apply.stderr, /is gone \(deleted by hand\?\)/);
    const discarded = await cli("worktrees", "discard", id, "--force");
    assert.equal(discarded.code, 0, discarded.stderr);
    assert.match(discarded.stdout, /was already gone/);
    assert.doesNotMatch(g(repo, "worktree", "list"), /\.repo\.worktrees/, "git's record is pruned");
  }));

test("run --worktree outside git: a clear note and a plain session; a thread without a worktree", () =>
  withTmpDir("acp-wt-plain-", async (dir) => {
    const home = join(dir, "home");
    const ws = join(dir, "ws");
    mkdirSync(ws);
    const res = await runCli(["run", "--worktree", "--agent", FAKE_AGENT, "--format", "json", "hello"], {
      home,
      cwd: ws,
    });
    assert.equal(res.code, 0, res.stderr);
    assert.match(
      res.stderr,
      /note: .* is not in a git repository, so it cannot have a worktree; running a plain session in/,
    );
    const summary = summaryOf(res.stdout);
    assert.equal(summary.worktree, undefined);
    for (const sub of ["apply", "discard"]) {
      const r = await runCli(["worktrees", sub, summary.threadId, "--force"], { home, cwd: ws });
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /has no worktree \(only threads started with 'run --worktree' or 'exec --worktree'/);
    }
    const more = await runCli(["run", "--thread", summary.threadId, "--worktree", "again"], { home, cwd: ws });
    assert.equal(more.code, 2);
    assert.match(more.stderr, /--worktree starts a new thread in a worktree of its own/);
  }));

test("hostile: worktrees apply refuses a worktree link to a secret (dry run shows it), --force applies the rest", () =>
  withRepo(SEED, async (repo, dir) => {
    const home = join(dir, "home");
    const cli = (...args: string[]) => runCli(args, { home, cwd: repo });
    writeFileSync(join(dir, "secret"), "SECRET-TOKEN\n");
    const res = await runInWorktree(cli, `terminal ln -s ${join(dir, "secret")} leak.txt; echo ok > ok.txt`);
    assert.equal(res.code, 0, res.stderr);
    const id = summaryOf(res.stdout).threadId as string;
    const dry = await cli("worktrees", "apply", id, "--dry-run");
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /refuse {3}leak\.txt {2}← leak\.txt is a symbolic link in the worktree/);
    const refused = await cli("worktrees", "apply", id);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /refusing to apply through symbolic links: leak\.txt .*Nothing was applied/);
    assert.equal(existsSync(join(repo, "ok.txt")), false);
    const forced = await cli("worktrees", "apply", id, "--force");
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(readFileSync(join(repo, "ok.txt"), "utf8"), "ok\n");
    assert.equal(existsSync(join(repo, "leak.txt")), false);
    assert.match(forced.stdout, /not applied \(symbolic link\): leak\.txt is a symbolic link/);
  }));

// `worktrees apply|discard THREAD` name the thread through the engine (worktree.thread): a prefix works, a thread
// another process writes is refused before anything is done (its worktree kept), and a path or `../` in place of
// the id is bad usage (exit 2), nothing read or removed; so is one in place of `worktrees compare`'s record id.
test("worktrees apply|discard: a thread another process writes is refused, a path is bad usage, a prefix works", () =>
  withRepo({ "a.txt": "a\n" }, async (repo, dir) => {
    const home = join(dir, "home");
    const cli = (...args: string[]) => runCli(args, { home, cwd: repo });
    const run = await runInWorktree(cli, "terminal echo hi > hello.txt");
    assert.equal(run.code, 0, run.stderr);
    const summary = summaryOf(run.stdout);
    const id = summary.threadId as string;
    const wt = summary.worktree.path as string;

    const held = new ThreadStore(home).open(id);
    try {
      for (const verb of ["apply", "discard"]) {
        const r = await cli("worktrees", verb, id.slice(0, -4), "--force");
        assert.equal(r.code, 2, r.stderr);
        assert.match(
          r.stderr,
          new RegExp(
            `thread ${id} is open in process ${process.pid} \\(an editor or a run\\); ${verb} its worktree once its session is closed`,
          ),
        );
      }
    } finally {
      held.close();
    }
    assert.equal(readFileSync(join(wt, "hello.txt"), "utf8"), "hi\n", "the worktree is kept");
    assert.equal(existsSync(join(repo, "hello.txt")), false, "nothing applied");

    for (const hostile of ["../x", wt]) {
      const r = await cli("worktrees", "discard", hostile, "--force");
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /is not a thread id/);
    }
    assert.ok(existsSync(wt), "still there");
    // worktrees compare names a Best of N record the same way (bestof.read)
    const none = await cli("worktrees", "compare");
    assert.deepEqual([none.code, none.stderr], [1, "acp-threads worktrees compare: no Best of N is recorded\n"]);
    const path = await cli("worktrees", "compare", "../x");
    assert.equal(path.code, 2, path.stderr);
    assert.match(path.stderr, /'\.\.\/x' is not a Best of N id/);

    const gone = await cli("worktrees", "discard", id.slice(0, -4), "--force");
    assert.equal(gone.code, 0, gone.stderr);
    assert.equal(gone.stdout, `discarded the worktree ${wt} of thread ${id}\n`);
    assert.equal(existsSync(wt), false);
  }));
