// Bringing a worktree's changes home through the edit ledger: conflicts (the workspace changed a file since the
// base that the worktree changed too) are refused, never overwritten; --force applies the rest; the apply is an
// operation of the thread's ledger that a restore takes back.
import assert from "node:assert/strict";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import { applyRestore, planRestore } from "../../../../src/core/ledger/restore";
import { applyWorktree, planApply } from "../../../../src/core/worktree/apply";
import { createWorktree } from "../../../../src/core/worktree/create";
import { THREAD } from "../ledger/helpers";
import { g, withRepo, writeFiles } from "./helpers";

const SEED = { "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n", "d.txt": "d\n", "run.sh": "#!/bin/sh\n" };

test("apply: new, modified, deleted and committed files reach the workspace; conflicts refuse, --force skips them", () =>
  withRepo(SEED, async (repo, dir) => {
    const made = await createWorktree(repo);
    const wt = made.ref.path;
    writeFileSync(join(wt, "a.txt"), "a from the agent\n");
    g(wt, "commit", "-qam", "agent commit");
    writeFileSync(join(wt, "b.txt"), "b from the agent\n");
    rmSync(join(wt, "c.txt"));
    writeFiles(wt, { "new/e.txt": "e\n", "tool.sh": "#!/bin/sh\necho\n" });
    chmodSync(join(wt, "tool.sh"), 0o755); // a new file keeps its mode
    writeFileSync(join(wt, "d.txt"), "d from the agent\n");
    // the user meanwhile: edits b.txt (conflict), makes d.txt what the agent made (already so)
    writeFileSync(join(repo, "b.txt"), "b by the user\n");
    writeFileSync(join(repo, "d.txt"), "d from the agent\n");
    const ledger = new EditLedger({ home: join(dir, "home") });
    try {
      const plan = await planApply(made.ref);
      assert.deepEqual(
        plan.items.map((i) => [i.rel, i.action, i.conflict]),
        [
          ["a.txt", "write", false],
          ["b.txt", "write", true],
          ["c.txt", "delete", false],
          ["d.txt", "unchanged", false],
          ["new/e.txt", "create", false],
          ["tool.sh", "create", false],
        ],
      );
      await assert.rejects(applyWorktree(ledger, THREAD, plan), (err) => {
        assert.match(
          (err as Error).message,
          /1 file changed in the workspace since the worktree's base .*: b\.txt\. Nothing was applied/,
        );
        return true;
      });
      assert.equal(readFileSync(join(repo, "a.txt"), "utf8"), "a\n", "nothing written");
      assert.equal(existsSync(join(ledger.dir, `${THREAD}.jsonl`)), false, "nothing recorded");

      const result = await applyWorktree(ledger, THREAD, plan, { force: true });
      assert.deepEqual(
        result.applied.map((i) => i.rel),
        ["a.txt", "c.txt", "new/e.txt", "tool.sh"],
      );
      assert.deepEqual(
        result.skipped.map((i) => i.rel),
        ["b.txt"],
      );
      assert.equal(readFileSync(join(repo, "a.txt"), "utf8"), "a from the agent\n");
      assert.equal(readFileSync(join(repo, "b.txt"), "utf8"), "b by the user\n", "a conflict is never overwritten");
      assert.equal(existsSync(join(repo, "c.txt")), false);
      assert.equal(readFileSync(join(repo, "new/e.txt"), "utf8"), "e\n");
      assert.equal(statSync(join(repo, "tool.sh")).mode & 0o777, 0o755);
      const op = result.op!;
      assert.equal(op.type, "apply");
      assert.match(op.summary!.notes!.join("\n"), /b\.txt: not applied/);
      assert.deepEqual(
        op.files.map((f) => [f.path.slice(repo.length + 1), f.before ? "had" : "new", f.after ? "has" : "gone"]).sort(),
        [
          ["a.txt", "had", "has"],
          ["c.txt", "had", "gone"],
          ["new/e.txt", "new", "has"],
          ["tool.sh", "new", "has"],
        ],
      );

      // the apply is undone like any operation of the thread
      const undo = await planRestore(ledger, THREAD, { op: op.op });
      await applyRestore(ledger, undo, { cwd: repo });
      assert.equal(readFileSync(join(repo, "a.txt"), "utf8"), "a\n");
      assert.equal(readFileSync(join(repo, "c.txt"), "utf8"), "c\n");
      assert.equal(existsSync(join(repo, "new/e.txt")), false);
      assert.equal(readFileSync(join(repo, "b.txt"), "utf8"), "b by the user\n");

      // applied twice: the second time everything already is so
      const again = await planApply(made.ref);
      assert.equal(again.items.find((i) => i.rel === "d.txt")!.action, "unchanged");
    } finally {
      ledger.dispose();
    }
  }));

test("apply of a worktree folder deleted by hand is a clear error", () =>
  withRepo(SEED, async (repo) => {
    const made = await createWorktree(repo);
    rmSync(made.ref.path, { recursive: true, force: true });
    await assert.rejects(planApply(made.ref), /is gone \(deleted by hand\?\), so there is nothing to apply/);
  }));

/** Every file under `dir`'s blob store (the ledger's copies of contents), read. */
function blobTexts(dir: string): string {
  if (!existsSync(dir)) return "";
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"))
    .join("\n");
}

test("hostile: apply never writes through a workspace link that leaves it, nor imports a worktree link as its target", () =>
  withRepo({ ...SEED, "out/keep.txt": "k\n", "cfg/x.txt": "x\n" }, async (repo, dir) => {
    const elsewhere = join(dir, "elsewhere");
    mkdirSync(elsewhere);
    writeFileSync(join(dir, "secret"), "SECRET-TOKEN\n");
    const made = await createWorktree(repo);
    const wt = made.ref.path;
    writeFiles(wt, { "a.txt": "a from the agent\n", "out/x.txt": "escapes\n" });
    symlinkSync(join(dir, "secret"), join(wt, "leak.txt")); // a worktree link to a secret
    // a worktree folder replaced by a link out: cfg/x.txt would be read through it
    rmSync(join(wt, "cfg"), { recursive: true });
    mkdirSync(join(dir, "etc"));
    writeFileSync(join(dir, "etc", "x.txt"), "SECRET-TOKEN etc\n");
    symlinkSync(join(dir, "etc"), join(wt, "cfg"));
    // the workspace's `out` is a link elsewhere
    rmSync(join(repo, "out"), { recursive: true });
    symlinkSync(elsewhere, join(repo, "out"));
    const ledger = new EditLedger({ home: join(dir, "home") });
    try {
      const plan = await planApply(made.ref);
      const refused = plan.items.filter((i) => i.refused).map((i) => [i.rel, i.refused]);
      assert.deepEqual(
        refused.map(([rel]) => rel),
        ["cfg", "cfg/x.txt", "leak.txt", "out/x.txt"],
        JSON.stringify(plan.items),
      );
      await assert.rejects(applyWorktree(ledger, THREAD, plan), (err) => {
        const m = (err as Error).message;
        assert.match(m, /refusing to apply through symbolic links: /);
        assert.match(m, /leak\.txt is a symbolic link in the worktree/);
        assert.match(m, /out\/x\.txt in the workspace goes through a symbolic link that leads out of the workspace/);
        assert.match(m, /Nothing was applied/);
        return true;
      });
      assert.equal(readFileSync(join(repo, "a.txt"), "utf8"), "a\n", "nothing half-applied");
      assert.deepEqual(readdirSync(elsewhere), []);
      const result = await applyWorktree(ledger, THREAD, plan, { force: true });
      assert.deepEqual(
        result.applied.map((i) => i.rel),
        ["a.txt"],
      );
      assert.deepEqual(readdirSync(elsewhere), [], "nothing written through the workspace's link");
      assert.equal(existsSync(join(repo, "leak.txt")), false, "the secret is not imported");
      assert.equal(readFileSync(join(repo, "cfg/x.txt"), "utf8"), "x\n");
      assert.doesNotMatch(
        blobTexts(ledger.blobs.dir),
        /SECRET-TOKEN/,
        "the ledger holds no content read through a link",
      );
      assert.match(result.op!.summary!.notes!.join("\n"), /leak\.txt: not applied, leak\.txt is a symbolic link/);
      // a workspace link planted after the plan was made is caught at apply time
      rmSync(join(repo, "new"), { recursive: true, force: true });
      writeFiles(wt, { "new/y.txt": "y\n" });
      const fresh = await planApply(made.ref);
      symlinkSync(elsewhere, join(repo, "new"));
      await assert.rejects(
        applyWorktree(ledger, THREAD, fresh),
        /new\/y\.txt in the workspace goes through a symbolic link/,
      );
      assert.deepEqual(readdirSync(elsewhere), []);
    } finally {
      ledger.dispose();
    }
  }));
