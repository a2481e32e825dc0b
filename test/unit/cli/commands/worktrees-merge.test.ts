// `worktrees apply --merge` through the built CLI with the stdio fake agent on a real repository: without --merge
// the conflicts refuse and the output says how to merge; --dry-run shows per file apply / clean merge / conflict
// (n hunks) / kept yours; --merge writes clean merges and conflict markers in one recorded apply and exits 1
// naming the files to resolve; a later apply does not offer the merged files again, and the agent's next change
// merges cleanly against what was applied.
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "node:test";
import { FAKE_AGENT, runCli } from "../../../fixtures/cli/spawn-cli";
import { withRepo } from "../../core/worktree/helpers";

const SEED = { "m.txt": "1\n2\n3\n4\n5\n", "x.txt": "x\n", "d.txt": "d\n" };
const lastJson = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, any>;

test("worktrees apply --merge: refuse and hint, dry run per file, markers and kept files exit 1, re-apply clean", () =>
  withRepo(SEED, async (repo, dir) => {
    const home = join(dir, "home");
    const cli = (...args: string[]) => runCli(args, { home, cwd: repo });
    const agent = ["--agent", FAKE_AGENT, "--permission", "approve-all", "--format", "json"];
    const res = await cli(
      "run",
      "--worktree",
      ...agent,
      String.raw`terminal printf '1\n2\n3\n4\n5 agent\n' > m.txt; echo 'x agent' > x.txt; rm d.txt; echo p > p.txt`,
    );
    assert.equal(res.code, 0, res.stderr);
    const { threadId: id, worktree } = lastJson(res.stdout);
    const wt = worktree.path as string;
    assert.equal(readFileSync(join(wt, "m.txt"), "utf8"), "1\n2\n3\n4\n5 agent\n");
    writeFileSync(join(repo, "m.txt"), "1 user\n2\n3\n4\n5\n");
    writeFileSync(join(repo, "x.txt"), "x user\n");
    writeFileSync(join(repo, "d.txt"), "d user\n");

    const refused = await cli("worktrees", "apply", id);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /3 files changed in the workspace since the worktree's base .*Nothing was applied/);
    assert.match(refused.stderr, /\(--merge, or the editor's "Merge 3 conflicts…"\)/);
    assert.equal(existsSync(join(repo, "p.txt")), false, "nothing written");

    const dry = await cli("worktrees", "apply", id, "--dry-run");
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(
      dry.stdout,
      /\n {2}keep {5}d\.txt {2}← changed in the workspace too since the base: kept yours: deleted in the worktree\n/,
    );
    assert.match(dry.stdout, /\n {2}merge {4}m\.txt {2}← changed in the workspace too since the base: clean merge\n/);
    assert.match(dry.stdout, /\n {2}create {3}p\.txt\n/);
    assert.match(dry.stdout, /\n {2}merge {4}x\.txt {2}← .*: conflict \(1 hunk\)\n/);
    assert.match(
      dry.stdout,
      /merge them: acp-threads worktrees apply \S+ --merge .*or the editor's "Merge 3 conflicts…"/,
    );
    const dryJson = JSON.parse((await cli("worktrees", "apply", id, "--dry-run", "--format", "json")).stdout);
    assert.deepEqual(
      dryJson.items.map((i: { rel: string; outcome: string; hunks?: number; reason?: string }) => [
        i.rel,
        i.outcome,
        i.hunks ?? i.reason ?? null,
      ]),
      [
        ["d.txt", "kept", "deleted in the worktree"],
        ["m.txt", "merge", null],
        ["p.txt", "apply", null],
        ["x.txt", "markers", 1],
      ],
    );
    assert.equal(readFileSync(join(repo, "m.txt"), "utf8"), "1 user\n2\n3\n4\n5\n", "a dry run writes nothing");

    const merged = await cli("worktrees", "apply", id, "--merge");
    assert.equal(merged.code, 1, merged.stderr);
    const op = /recorded as (apply-\w+)/.exec(merged.stdout)![1]!;
    assert.match(merged.stdout, /applied 3 files \(2 merged, 1 of them with conflict markers\)/);
    assert.match(
      merged.stdout,
      /1 file written with conflict markers .*resolve the markers.*\n {2}x\.txt \(1 conflict\)\n/,
    );
    assert.match(merged.stdout, /1 file not merged, kept yours:\n {2}d\.txt: kept yours: deleted in the worktree\n/);
    assert.equal(readFileSync(join(repo, "m.txt"), "utf8"), "1 user\n2\n3\n4\n5 agent\n");
    assert.equal(
      readFileSync(join(repo, "x.txt"), "utf8"),
      `<<<<<<< workspace\nx user\n=======\nx agent\n>>>>>>> worktree ${basename(wt)}\n`,
    );
    assert.equal(readFileSync(join(repo, "d.txt"), "utf8"), "d user\n");
    assert.equal(readFileSync(join(repo, "p.txt"), "utf8"), "p\n");
    const changes = JSON.parse((await cli("changes", id, "--format", "json")).stdout);
    const applyOp = changes.ops.find((o: { op: string }) => o.op === op);
    // (relative to the thread's folder, the worktree: the repository's files are shown whole)
    assert.deepEqual(
      applyOp.files.map((f: { rel: string }) => f.rel).sort(),
      ["m.txt", "p.txt", "x.txt"].map((f) => join(repo, f)),
    );

    // the user resolves the markers and takes the deletion: nothing is a conflict anymore
    writeFileSync(join(repo, "x.txt"), "x both\n");
    rmSync(join(repo, "d.txt"));
    const again = await cli("worktrees", "apply", id, "--merge");
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /nothing to apply/);
    assert.match(again.stdout, /keep \(already so\) x\.txt {2}\(the worktree's copy was applied before\)/);

    // the agent works on in its worktree: m.txt merges against what was applied, cleanly
    const more = await cli(
      "run",
      "--thread",
      id,
      ...agent,
      String.raw`terminal printf '1\n2\nthree agent\n4\n5 agent\n' > m.txt`,
    );
    assert.equal(more.code, 0, more.stderr);
    assert.equal(readFileSync(join(wt, "m.txt"), "utf8"), "1\n2\nthree agent\n4\n5 agent\n");
    const second = await cli("worktrees", "apply", id, "--merge", "--format", "json");
    assert.equal(second.code, 0, second.stderr);
    const out = JSON.parse(second.stdout);
    assert.deepEqual(
      out.files.filter((f: { outcome: string }) => f.outcome !== "unchanged"),
      [{ rel: "m.txt", outcome: "merge" }],
    );
    assert.equal(readFileSync(join(repo, "m.txt"), "utf8"), "1 user\n2\nthree agent\n4\n5 agent\n");
    const undo = await cli("restore", id, "--op", out.op);
    assert.equal(undo.code, 0, undo.stderr);
    assert.equal(readFileSync(join(repo, "m.txt"), "utf8"), "1 user\n2\n3\n4\n5 agent\n");
  }));
