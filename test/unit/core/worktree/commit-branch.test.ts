// "Commit to a branch" against real git: the worktree's changes (committed or not) end on a new branch, the
// user's checked-out branch and its files stay as they were, bad or existing names are refused.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { checkBranchName, commitToBranch } from "../../../../src/core/worktree/commit-branch";
import { createWorktree } from "../../../../src/core/worktree/create";
import { worktreeState } from "../../../../src/core/worktree/state";
import { g, withRepo } from "./helpers";

test("commit to a branch: the worktree's changes on a new branch; the user's branch untouched", () =>
  withRepo({ "a.txt": "a\n" }, async (repo) => {
    const made = await createWorktree(repo);
    writeFileSync(join(made.ref.path, "a.txt"), "a by the agent\n");
    writeFileSync(join(made.ref.path, "new.txt"), "new\n");
    const mainHead = g(repo, "rev-parse", "HEAD").trim();
    const r = await commitToBranch(made.ref, "agent/try-1", "the agent's try");
    assert.equal(r.branch, "agent/try-1");
    assert.equal(r.files, 2);
    assert.equal(g(repo, "rev-parse", "agent/try-1").trim(), r.commit);
    assert.equal(g(repo, "show", "agent/try-1:a.txt"), "a by the agent\n");
    assert.equal(g(repo, "show", "agent/try-1:new.txt"), "new\n");
    assert.equal(g(repo, "log", "-1", "--format=%s", "agent/try-1").trim(), "the agent's try");
    assert.equal(g(repo, "rev-parse", "HEAD").trim(), mainHead, "the user's branch did not move");
    assert.equal(g(repo, "symbolic-ref", "--short", "HEAD").trim(), "main");
    assert.equal(g(repo, "status", "--porcelain").trim(), "", "the user's files untouched");
    const state = await worktreeState(made.ref);
    assert.equal(state.ahead, 1);
    assert.equal(state.files.length, 2, "the state against the base still lists the changes");
    await assert.rejects(commitToBranch(made.ref, "agent/try-1", "again"), /exists already/);
  }));

test("commit to a branch: invalid names and an unchanged worktree are refused", () =>
  withRepo({ "a.txt": "a\n" }, async (repo) => {
    const made = await createWorktree(repo);
    await assert.rejects(checkBranchName(repo, "bad..name"), /not a valid branch name/);
    await assert.rejects(checkBranchName(repo, "  "), /a branch name is needed/);
    await assert.rejects(commitToBranch(made.ref, "fine", "m"), /nothing to commit/);
    assert.throws(() => g(repo, "rev-parse", "--verify", "--quiet", "refs/heads/fine"));
  }));
