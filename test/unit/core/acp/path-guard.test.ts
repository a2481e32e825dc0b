// The path guard's verdicts, and its probe of each root's case sensitivity: once per root for the guard's life
// (not per decision), with fs/promises only (#35: a permission decision never waits on disk on the host's thread).
import assert from "node:assert/strict";
import { mkdir, realpath, symlink } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { PathGuard } from "../../../../src/core/acp/path-guard";
import { outsidePaths } from "../../../../src/core/acp/permission-decision";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { countFsCalls } from "../fs-calls";

/** Runs `fn` with fs/promises' `stat` and every `fs.*Sync` counted: the paths stat-ed, the sync calls' names. */
async function counted(fn: () => Promise<void>): Promise<{ stats: string[]; sync: string[] }> {
  const { paths, sync } = await countFsCalls(fn, ["stat"]);
  return { stats: paths, sync };
}

test("the guard probes each root's case once for all its decisions, off the thread; its verdicts are as before", () =>
  withTmpDir("acp-guard-", async (dir) => {
    const tmp = await realpath(dir);
    const ws = join(tmp, "Workspace");
    const extra = join(tmp, "Extra");
    // the case-swapped name of the root, a real folder of its own here (this file system keeps case)
    const swapped = join(tmp, "wORKSPACE");
    await Promise.all([mkdir(join(ws, "src"), { recursive: true }), mkdir(extra), mkdir(swapped)]);
    await symlink(tmp, join(ws, "up"));
    const guard = new PathGuard([ws, extra]);
    const decision = [
      join(ws, "src", "a.ts"),
      join(ws, "new", "file.txt"),
      join(extra, "b.txt"),
      join(swapped, "a.ts"),
      join(tmp, "secret.txt"),
      join(ws, "..", "secret.txt"),
      join(ws, "up", "secret.txt"),
      "/dev/null",
    ];
    const expected = [join(swapped, "a.ts"), join(tmp, "secret.txt"), join(ws, "..", "secret.txt")];
    expected.push(join(ws, "up", "secret.txt"));
    const { stats, sync } = await counted(async () => {
      for (let i = 0; i < 3; i++) assert.deepEqual(await outsidePaths(guard, decision), expected, `decision ${i + 1}`);
      await assert.rejects(guard.check("relative.txt"), /must be absolute/);
    });
    assert.deepEqual(sync, [], "no synchronous file call");
    const probes = (root: string) => stats.filter((p) => p.toLowerCase() === root.toLowerCase()).length;
    assert.equal(probes(ws), 2, "the workspace root and its case-swapped name, once for the three decisions");
    assert.equal(probes(extra), 2, "the extra root, once");
    assert.equal(stats.length, 4);
    // a second guard (another session) probes again: the cache is the guard's (its roots' real paths too)
    const again = await counted(async () => void (await new PathGuard([ws]).check(join(ws, "src", "a.ts"))));
    assert.equal(again.stats.length, 2);
  }));
