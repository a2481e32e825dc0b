// The one git runner (src/core/platform/git.ts) against real git: a failure is a GitError with the command, the
// exit code and the tail of stderr; "not a repository" is an answer only where a caller asks for it; and every git
// call of the worktree stage, the ledger's plumbing and the thread facts goes through the installed command runner
// (the extension host's spawner), never a child_process of its own.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { repoOf } from "../../../../src/core/ledger/git-plumbing";
import { git, gitBuffer, GitError, notARepo, repoTop, revParseOrNone } from "../../../../src/core/platform/git";
import { runToEnd, setCommandRunner, type RunRequest } from "../../../../src/core/platform/run-to-end";
import { gitInfoAsync } from "../../../../src/core/store/git-info";
import { createWorktree } from "../../../../src/core/worktree/create";
import { discardWorktree } from "../../../../src/core/worktree/discard";
import { conflictSides } from "../../../../src/core/worktree/merge-apply";
import { worktreeState } from "../../../../src/core/worktree/state";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { g, withRepo } from "../worktree/helpers";

test("a failing git call is a GitError with its command, exit code and stderr", () =>
  withRepo({ "a.txt": "a\n" }, async (repo) => {
    const err = await git(repo, ["rev-parse", "--verify", "no-such-ref"]).catch((e: unknown) => e);
    assert.ok(err instanceof GitError);
    assert.deepEqual(err.args, ["rev-parse", "--verify", "no-such-ref"]);
    assert.equal(err.exitCode, 128);
    assert.match(err.stderr, /Needed a single revision/);
    assert.match(err.message, /^git rev-parse failed: fatal: Needed a single revision/);
    assert.equal(notARepo(err), false, "a bad ref in a repository is not 'no repository'");
    assert.equal(await revParseOrNone(repo, "no-such-ref"), undefined, "the caller that asks gets its 'none'");
    assert.match(await revParseOrNone(repo, "HEAD").then(String), /^[0-9a-f]{40}$/);
  }));

test("outside a repository: repoTop and repoOf say none, git itself throws a GitError notARepo knows", () =>
  withTmpDir("acp-git-norepo-", async (dir) => {
    const err = await git(dir, ["rev-parse", "--show-toplevel"]).catch((e: unknown) => e);
    assert.ok(err instanceof GitError && notARepo(err), String(err));
    assert.equal(await repoTop(dir), undefined);
    assert.equal(await repoOf(dir), undefined);
    assert.deepEqual(await gitInfoAsync(dir), { repoRoot: null, gitHead: null });
  }));

test("bytes that are not UTF-8 come back as they are", () =>
  withRepo({}, async (repo) => {
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0x0a, 0xc3]);
    writeFileSync(join(repo, "b.bin"), bytes);
    g(repo, "add", "b.bin");
    assert.deepEqual(await gitBuffer(repo, ["cat-file", "blob", ":b.bin"]), bytes);
  }));

test("the worktree stage, the ledger's plumbing and the thread facts run git through the command runner", () =>
  withRepo({ "a.txt": "a\n", "src/b.txt": "b\n" }, async (repo) => {
    const ran: string[] = [];
    const restore = setCommandRunner((req: RunRequest) => {
      ran.push(`${req.file} ${req.args.filter((a) => !a.startsWith("-") && !a.includes("=")).join(" ")}`);
      return runToEnd(req);
    });
    try {
      const made = await createWorktree(repo);
      mkdirSync(join(made.ref.path, "src"), { recursive: true });
      writeFileSync(join(made.ref.path, "src/b.txt"), "changed\n");
      const state = await worktreeState(made.ref);
      assert.deepEqual(
        state.files.map((f) => f.path),
        ["src/b.txt"],
      );
      const sides = await conflictSides(made.ref, "src/b.txt");
      assert.equal(sides.base?.toString(), "b\n");
      assert.ok(await repoOf(repo));
      assert.equal((await gitInfoAsync(repo)).repoRoot !== null, true);
      await discardWorktree(made.ref);
    } finally {
      restore();
    }
    const calls = ran.join("\n");
    for (const call of ["git worktree add", "git diff", "git cat-file blob", "git worktree remove", "git rev-parse"])
      assert.ok(calls.includes(call), `${call} went past the command runner:\n${calls}`);
  }));
