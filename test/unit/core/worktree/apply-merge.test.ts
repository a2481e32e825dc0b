// `worktrees apply --merge` and the apply history (#25 leftovers), on real repositories: conflicting files merged
// three-way with git merge-file into the same recorded apply (clean, or with conflict markers), binary files and
// files deleted on one side kept as they are; a later apply compares against what the last apply took in, so a
// merged file is not a conflict again, and a file the agent changed again merges against the version taken in.
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "node:test";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import { parseLedgerLine } from "../../../../src/core/ledger/records";
import { applyRestore, planRestore } from "../../../../src/core/ledger/restore";
import { applyWorktree, planApply } from "../../../../src/core/worktree/apply";
import { createWorktree } from "../../../../src/core/worktree/create";
import { conflictSides, recordMergedFile } from "../../../../src/core/worktree/merge-apply";
import { planMerges } from "../../../../src/core/worktree/merge-plan";
import { THREAD } from "../ledger/helpers";
import { withRepo } from "./helpers";

const read = (path: string) => readFileSync(path, "utf8");

test("--merge: clean merge, conflict markers, binary and deleted-on-one-side kept; one op; restore takes it back", () =>
  withRepo(
    {
      "clean.txt": "1\n2\n3\n4\n5\n",
      "clash.txt": "x\n",
      "bin.dat": "b\0\n",
      "gone.txt": "g\n",
      "ugone.txt": "u\n",
      "plain.txt": "p\n",
    },
    async (repo, dir) => {
      const made = await createWorktree(repo);
      const wt = made.ref.path;
      writeFileSync(join(wt, "clean.txt"), "1\n2\n3\n4\n5 agent\n");
      writeFileSync(join(wt, "clash.txt"), "x agent\n");
      writeFileSync(join(wt, "bin.dat"), "b\0agent\n");
      rmSync(join(wt, "gone.txt"));
      writeFileSync(join(wt, "ugone.txt"), "u agent\n");
      writeFileSync(join(wt, "plain.txt"), "p agent\n");
      writeFileSync(join(repo, "clean.txt"), "1 user\n2\n3\n4\n5\n");
      writeFileSync(join(repo, "clash.txt"), "x user\n");
      writeFileSync(join(repo, "bin.dat"), "b\0user\n");
      writeFileSync(join(repo, "gone.txt"), "g user\n");
      rmSync(join(repo, "ugone.txt"));
      const ledger = new EditLedger({ home: join(dir, "home") });
      try {
        const plan = await planApply(made.ref, { ledger, threadId: THREAD });
        assert.deepEqual(
          plan.items.filter((i) => i.conflict).map((i) => i.rel),
          ["bin.dat", "clash.txt", "clean.txt", "gone.txt", "ugone.txt"],
        );
        const merges = await planMerges(plan, ledger.blobs);
        assert.deepEqual(
          [...merges].map(([rel, m]) => [rel, m.kind, m.kind === "kept" ? m.reason : m.hunks]),
          [
            ["bin.dat", "kept", "binary"],
            ["clash.txt", "conflict", 1],
            ["clean.txt", "clean", 0],
            ["gone.txt", "kept", "deleted in the worktree"],
            ["ugone.txt", "kept", "deleted in the workspace"],
          ],
        );
        assert.equal(read(join(repo, "clean.txt")), "1 user\n2\n3\n4\n5\n", "planning merges writes nothing");

        const result = await applyWorktree(ledger, THREAD, plan, { merges });
        assert.deepEqual(
          result.applied.map((i) => i.rel),
          ["clash.txt", "clean.txt", "plain.txt"],
        );
        assert.deepEqual(
          result.skipped.map((i) => i.rel),
          ["bin.dat", "gone.txt", "ugone.txt"],
        );
        assert.equal(read(join(repo, "clean.txt")), "1 user\n2\n3\n4\n5 agent\n");
        assert.equal(
          read(join(repo, "clash.txt")),
          `<<<<<<< workspace\nx user\n=======\nx agent\n>>>>>>> worktree ${basename(wt)}\n`,
        );
        assert.equal(read(join(repo, "plain.txt")), "p agent\n");
        assert.equal(read(join(repo, "bin.dat")), "b\0user\n", "binary: yours kept, no markers");
        assert.equal(read(join(repo, "gone.txt")), "g user\n");
        assert.equal(existsSync(join(repo, "ugone.txt")), false);
        const ops = ledger.read(THREAD).ops;
        assert.equal(ops.length, 1, "one apply operation");
        assert.equal(ops[0]!.op, result.op!.op);
        const notes = result.op!.summary!.notes!.join("\n");
        assert.match(notes, /clean\.txt: merged with the workspace's changes/);
        assert.match(notes, /clash\.txt: merged with 1 conflict marked in the file/);
        assert.match(notes, /bin\.dat: not applied, kept yours: binary/);
        assert.match(notes, /gone\.txt: not applied, kept yours: deleted in the worktree/);

        await applyRestore(ledger, await planRestore(ledger, THREAD, { op: result.op!.op }), { cwd: repo });
        assert.equal(read(join(repo, "clean.txt")), "1 user\n2\n3\n4\n5\n");
        assert.equal(read(join(repo, "clash.txt")), "x user\n");
        assert.equal(read(join(repo, "plain.txt")), "p\n");
      } finally {
        ledger.dispose();
      }
    },
  ));

test("a merged file is not a conflict again; the agent's next change merges against the version taken in", () =>
  withRepo({ "f.txt": "a\nb\nc\nd\ne\n", "g.txt": "g\n" }, async (repo, dir) => {
    const made = await createWorktree(repo);
    const wt = made.ref.path;
    writeFileSync(join(wt, "f.txt"), "a\nb\nc\nd\nE agent\n");
    writeFileSync(join(wt, "g.txt"), "g1\n");
    writeFileSync(join(repo, "f.txt"), "A user\nb\nc\nd\ne\n");
    const ledger = new EditLedger({ home: join(dir, "home") });
    const history = { ledger, threadId: THREAD };
    try {
      const plan1 = await planApply(made.ref, history);
      const first = await applyWorktree(ledger, THREAD, plan1, { merges: await planMerges(plan1, ledger.blobs) });
      assert.equal(read(join(repo, "f.txt")), "A user\nb\nc\nd\nE agent\n");
      assert.equal(read(join(repo, "g.txt")), "g1\n");

      // applied again, the worktree unchanged: nothing to do (without the history it was a conflict)
      const plan2 = await planApply(made.ref, history);
      const f2 = plan2.items.find((i) => i.rel === "f.txt")!;
      assert.deepEqual([f2.action, f2.conflict, f2.lastApplied?.op], ["unchanged", false, first.op!.op]);
      assert.equal((await planApply(made.ref)).items.find((i) => i.rel === "f.txt")!.conflict, true);
      // the user edits the merged result: still the user's, not the worktree's news
      writeFileSync(join(repo, "f.txt"), "A user\nb\nc\nd\nE agent\nmore by the user\n");
      assert.equal((await planApply(made.ref, history)).items.find((i) => i.rel === "f.txt")!.action, "unchanged");
      writeFileSync(join(repo, "f.txt"), "A user\nb\nc\nd\nE agent\n");

      // the agent works on: f.txt merges against what the last apply took in (clean); g.txt is a plain write
      writeFileSync(join(wt, "f.txt"), "a\nb\nC agent\nd\nE agent\n");
      writeFileSync(join(wt, "g.txt"), "g2\n");
      const plan3 = await planApply(made.ref, history);
      assert.deepEqual(
        plan3.items.map((i) => [i.rel, i.action, i.conflict]),
        [
          ["f.txt", "write", true],
          ["g.txt", "write", false],
        ],
      );
      const sides = await conflictSides(made.ref, "f.txt", { last: plan3.items[0]!.lastApplied!, blobs: ledger.blobs });
      assert.equal(sides.base?.toString(), "a\nb\nc\nd\nE agent\n", "the base is the version taken in");
      const merges = await planMerges(plan3, ledger.blobs);
      assert.equal(merges.get("f.txt")?.kind, "clean");
      const second = await applyWorktree(ledger, THREAD, plan3, { merges });
      assert.equal(read(join(repo, "f.txt")), "A user\nb\nC agent\nd\nE agent\n");
      assert.equal(read(join(repo, "g.txt")), "g2\n");
      assert.deepEqual(
        (await planApply(made.ref, history)).items.map((i) => [i.rel, i.action, i.conflict]),
        [
          ["f.txt", "unchanged", false],
          ["g.txt", "unchanged", false],
        ],
      );

      // that apply restored: the first one stands again for both files (the restore put back what it wrote)
      await applyRestore(ledger, await planRestore(ledger, THREAD, { op: second.op!.op }), { cwd: repo });
      assert.deepEqual(
        (await planApply(made.ref, history)).items.map((i) => [i.rel, i.action, i.conflict, i.lastApplied?.op]),
        [
          ["f.txt", "write", true, first.op!.op],
          ["g.txt", "write", false, first.op!.op],
        ],
      );
      // and the first restored too: nothing an apply wrote is left, the base commit is the reference again
      await applyRestore(ledger, await planRestore(ledger, THREAD, { op: first.op!.op }), { cwd: repo });
      assert.equal(read(join(repo, "f.txt")), "A user\nb\nc\nd\ne\n");
      assert.deepEqual(
        (await planApply(made.ref, history)).items.map((i) => [i.rel, i.action, i.conflict, i.lastApplied?.op]),
        [
          ["f.txt", "write", true, undefined],
          ["g.txt", "write", false, undefined],
        ],
      );
    } finally {
      ledger.dispose();
    }
  }));

test("the editor's merge (recordMergedFile) records what it took in: the file is not offered again", () =>
  withRepo({ "m.txt": "one\ntwo\n" }, async (repo, dir) => {
    const made = await createWorktree(repo);
    writeFileSync(join(made.ref.path, "m.txt"), "one\ntwo by the agent\n");
    writeFileSync(join(repo, "m.txt"), "one by the user\ntwo\n");
    const ledger = new EditLedger({ home: join(dir, "home") });
    const history = { ledger, threadId: THREAD };
    try {
      assert.equal((await planApply(made.ref, history)).items[0]!.conflict, true);
      const sides = await conflictSides(made.ref, "m.txt");
      await recordMergedFile(ledger, THREAD, made.ref, "m.txt", Buffer.from("one by the user\ntwo by the agent\n"));
      const again = (await planApply(made.ref, history)).items[0]!;
      assert.deepEqual([again.action, again.conflict], ["unchanged", false]);
      assert.equal(again.lastApplied?.source?.id !== undefined, true);
      assert.equal(sides.theirs?.toString(), "one\ntwo by the agent\n");
    } finally {
      ledger.dispose();
    }
  }));

test("a ledger change's `source` is kept when well formed and dropped when not", () => {
  const base = { v: 1, ts: "2026-11-26T08:00:00.000Z", kind: "change", op: "apply-x", path: "/r/a", via: "apply" };
  const state = { id: "a".repeat(40), size: 1, stored: true };
  const ok = parseLedgerLine(JSON.stringify({ ...base, before: null, after: state, source: state }));
  assert.equal(ok.ok && ok.record.kind === "change" && ok.record.source?.id, state.id);
  const gone = parseLedgerLine(JSON.stringify({ ...base, before: null, after: state, source: null }));
  assert.equal(gone.ok && gone.record.kind === "change" && gone.record.source, null);
  const bad = parseLedgerLine(JSON.stringify({ ...base, before: null, after: state, source: { id: 3 } }));
  assert.equal(bad.ok && bad.record.kind === "change" && "source" in bad.record, false);
});

test("hostile: the editor's merge of a file refuses a workspace link out of the workspace (nothing read or written)", () =>
  withRepo({ "m.txt": "one\ntwo\n" }, async (repo, dir) => {
    const made = await createWorktree(repo);
    writeFileSync(join(made.ref.path, "m.txt"), "one\ntwo by the agent\n");
    writeFileSync(join(dir, "secret"), "SECRET-TOKEN\n");
    rmSync(join(repo, "m.txt"));
    symlinkSync(join(dir, "secret"), join(repo, "m.txt")); // the workspace's copy now points at a secret
    const ledger = new EditLedger({ home: join(dir, "home") });
    try {
      await assert.rejects(conflictSides(made.ref, "m.txt"), /refusing to merge through a symbolic link: m\.txt/);
      await assert.rejects(
        recordMergedFile(ledger, THREAD, made.ref, "m.txt", Buffer.from("merged\n")),
        /refusing to merge through a symbolic link/,
      );
      assert.equal(read(join(dir, "secret")), "SECRET-TOKEN\n", "nothing written through the link");
      assert.equal(existsSync(join(ledger.dir, `${THREAD}.jsonl`)), false, "nothing recorded");
    } finally {
      ledger.dispose();
    }
  }));
