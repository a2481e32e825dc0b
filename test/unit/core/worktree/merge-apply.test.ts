// The conflicts an apply left alone, settled one file at a time: the three versions (base commit, workspace,
// worktree; null where a side has no file), and the user's result written to the workspace as a one-file `apply-…`
// operation that a restore takes back. Nothing is recorded when the result is what the workspace already has.
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import { applyRestore, planRestore } from "../../../../src/core/ledger/restore";
import { createWorktree } from "../../../../src/core/worktree/create";
import { conflictSides, recordMergedFile } from "../../../../src/core/worktree/merge-apply";
import { THREAD } from "../ledger/helpers";
import { withRepo, writeFiles } from "./helpers";

test("merge of a conflict: three sides, the result recorded as its own op, restore takes it back", () =>
  withRepo({ "m.txt": "one\ntwo\n", "d.txt": "d\n" }, async (repo, dir) => {
    const made = await createWorktree(repo);
    const wt = made.ref.path;
    writeFileSync(join(wt, "m.txt"), "one\ntwo by the agent\n");
    rmSync(join(wt, "d.txt"));
    writeFiles(wt, { "new.txt": "theirs\n" });
    writeFileSync(join(repo, "m.txt"), "one by the user\ntwo\n");
    writeFileSync(join(repo, "new.txt"), "mine\n");
    const ledger = new EditLedger({ home: join(dir, "home") });
    try {
      const m = await conflictSides(made.ref, "m.txt");
      assert.deepEqual(
        [m.base?.toString(), m.yours?.toString(), m.theirs?.toString()],
        ["one\ntwo\n", "one by the user\ntwo\n", "one\ntwo by the agent\n"],
      );
      const d = await conflictSides(made.ref, "d.txt");
      assert.equal(d.theirs, null, "deleted in the worktree");
      assert.equal(d.base?.toString(), "d\n");
      const n = await conflictSides(made.ref, "new.txt");
      assert.equal(n.base, null, "absent at the base commit");

      assert.equal(
        await recordMergedFile(ledger, THREAD, made.ref, "m.txt", Buffer.from("one by the user\ntwo\n")),
        undefined,
        "kept as it is: nothing written, nothing recorded",
      );
      const op = await recordMergedFile(ledger, THREAD, made.ref, "m.txt", Buffer.from("merged\n"), "apply-x");
      assert.ok(op);
      assert.equal(op.type, "apply");
      assert.deepEqual(
        op.files.map((f) => f.path),
        [join(repo, "m.txt")],
      );
      assert.match(op.summary!.notes![0]!, /^m\.txt: merged by the user, a conflict of apply-x /);
      assert.equal(readFileSync(join(repo, "m.txt"), "utf8"), "merged\n");
      const gone = await recordMergedFile(ledger, THREAD, made.ref, "d.txt", null);
      assert.equal(existsSync(join(repo, "d.txt")), false);

      // a restore goes back to before an operation (that one and every later one): the last first
      for (const o of [gone!, op])
        await applyRestore(ledger, await planRestore(ledger, THREAD, { op: o.op }), { cwd: repo });
      assert.equal(readFileSync(join(repo, "m.txt"), "utf8"), "one by the user\ntwo\n");
      assert.equal(readFileSync(join(repo, "d.txt"), "utf8"), "d\n");
    } finally {
      ledger.dispose();
    }
  }));
