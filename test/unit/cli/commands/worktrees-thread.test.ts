// `worktrees apply|discard THREAD` name the thread through the engine (worktree.thread): a prefix works, a thread
// another process writes is refused before anything is done (its worktree kept), and a path or `../` in place of
// the id is bad usage (exit 2), nothing read or removed; so is one in place of `worktrees compare`'s record id.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { FAKE_AGENT, runCli } from "../../../fixtures/cli/spawn-cli";
import { withRepo } from "../../core/worktree/helpers";

test("worktrees apply|discard: a thread another process writes is refused, a path is bad usage, a prefix works", () =>
  withRepo({ "a.txt": "a\n" }, async (repo, dir) => {
    const home = join(dir, "home");
    const cli = (...args: string[]) => runCli(args, { home, cwd: repo });
    const run = await cli(
      "run",
      "--worktree",
      "--agent",
      FAKE_AGENT,
      "--permission",
      "approve-all",
      "--format",
      "json",
      "terminal echo hi > hello.txt",
    );
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as {
      threadId: string;
      worktree: { path: string };
    };
    const id = summary.threadId;
    const wt = summary.worktree.path;

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
