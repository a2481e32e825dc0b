// src/core/worktree against real git: create (beside the repository, .worktreeinclude), state, discard, and the
// hostile cases (not a repository, no commit, dirty base, include patterns that try to leave, a folder deleted
// by hand, metadata naming a folder we do not manage).
import assert from "node:assert/strict";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createWorktree, isNotARepository } from "../../../../src/core/worktree/create";
import { discardWorktree } from "../../../../src/core/worktree/discard";
import { includePatterns } from "../../../../src/core/worktree/include";
import { worktreesDirOf } from "../../../../src/core/worktree/layout";
import { worktreeState } from "../../../../src/core/worktree/state";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { g, withRepo, writeFiles } from "./helpers";

const SEED = {
  "a.txt": "a\n",
  "src/b.txt": "b1\nb2\n",
  ".gitignore": ".env\nnode_modules/\nbuild/\n*.log\n",
  ".worktreeinclude": "# what a worktree needs\n.env\nnode_modules/\n../outside\n/../../etc/passwd\n",
};

test("create: a detached worktree beside the repository, .worktreeinclude's ignored files copied, base recorded", () =>
  withRepo(SEED, async (repo, dir) => {
    writeFiles(repo, { ".env": "KEY=1\n", "node_modules/m/index.js": "x\n", "build/out.js": "y\n", "x.log": "z\n" });
    writeFiles(dir, { outside: "not yours\n" });
    symlinkSync("../outside", join(repo, "node_modules", "link"));
    const made = await createWorktree(join(repo, "src"));
    const head = g(repo, "rev-parse", "HEAD").trim();
    assert.equal(made.ref.base, head);
    assert.equal(made.ref.repo, repo);
    assert.equal(made.ref.path.startsWith(join(dir, ".repo.worktrees") + "/"), true, made.ref.path);
    assert.equal(worktreesDirOf(repo), join(dir, ".repo.worktrees"));
    assert.equal(made.cwd, join(made.ref.path, "src"), "the session's cwd is the same subfolder");
    assert.equal(readFileSync(join(made.ref.path, "src/b.txt"), "utf8"), "b1\nb2\n");
    assert.equal(readFileSync(join(made.ref.path, ".env"), "utf8"), "KEY=1\n");
    assert.equal(readFileSync(join(made.ref.path, "node_modules/m/index.js"), "utf8"), "x\n");
    assert.equal(readlinkSync(join(made.ref.path, "node_modules/link")), "../outside", "a link is copied as a link");
    assert.equal(existsSync(join(made.ref.path, "build")), false, "ignored and not included: not copied");
    assert.equal(existsSync(join(made.ref.path, "x.log")), false);
    assert.deepEqual(made.copied.sort(), [".env", "node_modules/"]);
    assert.equal(made.warnings.length, 2, made.warnings.join("\n"));
    assert.match(made.warnings[0]!, /'\.\.\/outside' is skipped: patterns are relative to the repository/);
    assert.equal(g(made.ref.path, "rev-parse", "HEAD").trim(), head);
    assert.match(g(repo, "worktree", "list", "--porcelain"), new RegExp(`worktree ${made.ref.path}\\n`));
    // the main working tree does not see the worktree
    assert.equal(g(repo, "status", "--porcelain"), "");
  }));

test("include patterns: lines with a .. segment or an absolute drive path are skipped, the rest kept", () => {
  const { patterns, warnings } = includePatterns(".env\n../x\nsub/../../y\n!../z\nC:\\\\secret\nok/**\n");
  assert.equal(patterns, ".env\nok/**\n");
  assert.equal(warnings.length, 4);
});

test("create: a folder outside git is a clear not-a-repository error; a repository without a commit too", () =>
  withTmpDir("acp-wt-plain-", async (dir) => {
    await assert.rejects(createWorktree(dir), (err) => {
      assert.equal(isNotARepository(err), true);
      assert.match((err as Error).message, /is not in a git repository/);
      return true;
    });
    await assert.rejects(createWorktree(join(dir, "missing")), /does not exist/);
    const empty = join(dir, "empty");
    mkdirSync(empty);
    g(empty, "init", "-q");
    await assert.rejects(createWorktree(empty), /has no commit yet; commit once/);
    assert.equal(existsSync(join(dir, ".empty.worktrees")), false);
  }));

test("create on a dirty base: a warning, and the worktree has the commit without the uncommitted edits", () =>
  withRepo(SEED, async (repo) => {
    writeFileSync(join(repo, "a.txt"), "edited\n");
    writeFileSync(join(repo, "new.txt"), "n\n");
    const made = await createWorktree(repo);
    assert.deepEqual(made.warnings.filter((w) => /uncommitted/.test(w)).length, 1);
    assert.match(
      made.warnings.join("\n"),
      /has 2 uncommitted changes; the worktree starts from commit \w{10} without them/,
    );
    assert.equal(readFileSync(join(made.ref.path, "a.txt"), "utf8"), "a\n");
    assert.equal(existsSync(join(made.ref.path, "new.txt")), false);
  }));

test("state: changed files against the base (committed, uncommitted, new, deleted), lines and commits ahead", () =>
  withRepo(SEED, async (repo) => {
    const made = await createWorktree(repo);
    const wt = made.ref.path;
    assert.deepEqual((await worktreeState(made.ref)).files, []);
    writeFileSync(join(wt, "a.txt"), "a\nmore\n");
    g(wt, "commit", "-qam", "more");
    writeFileSync(join(wt, "src/b.txt"), "b1\n");
    rmSync(join(wt, ".worktreeinclude"));
    writeFiles(wt, { "new/c.txt": "c\nc\nc\n", "ignored.log": "x\n" });
    const s = await worktreeState(made.ref);
    assert.equal(s.exists, true);
    assert.equal(s.ahead, 1);
    assert.deepEqual(
      s.files.map((f) => [f.path, f.change, f.added, f.removed]),
      [
        [".worktreeinclude", "deleted", 0, 5],
        ["a.txt", "modified", 1, 0],
        ["new/c.txt", "added", 3, 0],
        ["src/b.txt", "modified", 0, 1],
      ],
    );
    assert.deepEqual([s.added, s.removed], [4, 6]);
  }));

test("discard: the worktree, its folder and git's record go; a folder deleted by hand is pruned", () =>
  withRepo(SEED, async (repo, dir) => {
    const one = await createWorktree(repo);
    const two = await createWorktree(repo);
    writeFileSync(join(one.ref.path, "dirty.txt"), "unsaved work\n");
    const r1 = await discardWorktree(one.ref);
    assert.equal(r1.wasMissing, false);
    assert.equal(existsSync(one.ref.path), false);
    assert.doesNotMatch(g(repo, "worktree", "list"), new RegExp(one.ref.path));
    rmSync(two.ref.path, { recursive: true, force: true }); // by hand
    assert.equal((await worktreeState(two.ref)).exists, false);
    const r2 = await discardWorktree(two.ref);
    assert.equal(r2.wasMissing, true);
    assert.equal(g(repo, "worktree", "list", "--porcelain").match(/^worktree /gm)?.length, 1, "pruned");
    assert.equal(existsSync(join(dir, ".repo.worktrees")), false, "the managed folder goes once empty");
  }));

test("discard refuses a path that is not a worktree folder we manage (metadata is data)", () =>
  withRepo(SEED, async (repo, dir) => {
    const victim = join(dir, "precious");
    mkdirSync(victim);
    for (const path of [victim, repo, join(dir, ".repo.worktrees"), join(dir, ".repo.worktrees", "a", "b")])
      await assert.rejects(
        discardWorktree({ path, repo, base: "0".repeat(40), createdAt: "" }),
        /is not a worktree folder ACP Threads manages/,
      );
    assert.equal(existsSync(victim), true);
    assert.equal(existsSync(join(repo, "a.txt")), true);
  }));

test("hostile: a worktrees folder planted as a link elsewhere is refused, nothing goes there; ours is private", () =>
  withRepo(SEED, async (repo, dir) => {
    const elsewhere = join(dir, "elsewhere");
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, worktreesDirOf(repo));
    await assert.rejects(
      createWorktree(repo),
      /refusing the worktrees folder .*\.repo\.worktrees: it is a symbolic link/,
    );
    assert.deepEqual(readdirSync(elsewhere), [], "the agent's tree did not go through the link");
    rmSync(worktreesDirOf(repo));
    writeFileSync(worktreesDirOf(repo), "a file\n");
    await assert.rejects(createWorktree(repo), /it is not a folder/);
    rmSync(worktreesDirOf(repo));
    mkdirSync(worktreesDirOf(repo), { mode: 0o777 });
    chmodSync(worktreesDirOf(repo), 0o777);
    const made = await createWorktree(repo);
    assert.equal(statSync(worktreesDirOf(repo)).mode & 0o777, 0o700, "a folder found open to others is made private");
    assert.equal(statSync(made.ref.path).mode & 0o077, 0, "the worktree's own folder is private");
    assert.equal(readFileSync(join(made.ref.path, "a.txt"), "utf8"), "a\n");
  }));
