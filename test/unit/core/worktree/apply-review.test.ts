// A worktree apply reviewed hunk by hunk, like a turn (#25 item 2): the apply's hunks are pending, Keep marks one
// reviewed, Undo puts one back to the workspace's pre-apply text (recorded as an undo of the apply), a restore of
// the apply takes it back (and its hunks are then no longer to review) and undoing that restore gives it back; a
// merged conflict (its own one-file apply op) is reviewed the same way; the apply writes through the writer given.
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import { applyRestore, diskWriter, planRestore, type FileWriter } from "../../../../src/core/ledger/restore";
import { isReviewable, restoredTurns } from "../../../../src/core/ledger/restored";
import { keepChange, reviewOpAsync, undoChange } from "../../../../src/core/ledger/review";
import { applyWorktree, planApply } from "../../../../src/core/worktree/apply";
import { createWorktree } from "../../../../src/core/worktree/create";
import { recordMergedFile } from "../../../../src/core/worktree/merge-apply";
import { THREAD } from "../ledger/helpers";
import { withRepo } from "./helpers";

const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join("");
const BASE = lines("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten");
const AGENT = BASE.replace("two", "TWO (agent)").replace("nine", "NINE (agent)");

test("an apply's hunks: pending, keep one, undo the other; restore takes the apply back, its undo gives it back", () =>
  withRepo({ "a.txt": BASE }, async (repo, dir) => {
    const made = await createWorktree(repo);
    writeFileSync(join(made.ref.path, "a.txt"), AGENT);
    const ledger = new EditLedger({ home: join(dir, "home") });
    try {
      const { op } = await applyWorktree(ledger, THREAD, await planApply(made.ref));
      assert.ok(op && isReviewable(op), "an apply is reviewed like a turn");
      const a = join(repo, "a.txt");
      const review = () =>
        reviewOpAsync(
          ledger,
          ledger.read(THREAD),
          ledger.read(THREAD).ops.find((o) => o.op === op.op)!,
        );
      let [file] = await review();
      assert.equal(file!.turn, undefined);
      assert.deepEqual(
        file!.hunks.map((h) => [h.afterStart, h.afterEnd, h.status]),
        [
          [1, 2, "pending"],
          [8, 9, "pending"],
        ],
      );
      await keepChange(ledger, THREAD, { op: op.op, path: a, hunk: 1 });
      const undo = await undoChange(ledger, THREAD, { op: op.op, path: a, hunk: 0 }, { cwd: repo });
      assert.equal(readFileSync(a, "utf8"), BASE.replace("nine", "NINE (agent)"), "hunk 1 is the pre-apply text");
      [file] = await review();
      assert.deepEqual(
        file!.hunks.map((h) => h.status),
        ["undone", "kept"],
      );
      assert.equal(file!.status, "kept");
      assert.equal(undo.type, "undo");
      assert.deepEqual(undo.summary?.target, { op: op.op, path: a, hunk: 0 });
      assert.deepEqual([...restoredTurns(ledger.read(THREAD))], []);

      // Restore of the apply: back to before it (the undo after it too); the apply is then restored
      const r = await applyRestore(ledger, await planRestore(ledger, THREAD, { op: op.op }), { cwd: repo });
      assert.equal(readFileSync(a, "utf8"), BASE);
      assert.deepEqual([...restoredTurns(ledger.read(THREAD))], [[op.op, r.op]]);
      // undoing that restore: the apply (and its undone hunk) are as they were
      await applyRestore(ledger, await planRestore(ledger, THREAD, { op: r.op }), { cwd: repo });
      assert.equal(readFileSync(a, "utf8"), BASE.replace("nine", "NINE (agent)"));
      assert.deepEqual([...restoredTurns(ledger.read(THREAD))], []);
    } finally {
      ledger.dispose();
    }
  }));

test("a merged conflict is its own apply op, reviewed hunk by hunk: undo of a hunk gives back the user's text", () =>
  withRepo({ "m.txt": BASE }, async (repo, dir) => {
    const made = await createWorktree(repo);
    writeFileSync(join(made.ref.path, "m.txt"), AGENT);
    const mine = BASE.replace("five", "FIVE (mine)");
    const m = join(repo, "m.txt");
    writeFileSync(m, mine);
    const ledger = new EditLedger({ home: join(dir, "home") });
    try {
      const merged = AGENT.replace("five", "FIVE (mine)");
      const op = await recordMergedFile(ledger, THREAD, made.ref, "m.txt", Buffer.from(merged));
      assert.ok(op && isReviewable(op));
      const [file] = await reviewOpAsync(ledger, ledger.read(THREAD), op);
      assert.deepEqual(
        file!.hunks.map((h) => [h.afterStart, h.status]),
        [
          [1, "pending"],
          [8, "pending"],
        ],
        "the merge's hunks are what it brought in from the worktree (the user's line was there already)",
      );
      await undoChange(ledger, THREAD, { op: op.op, path: m, hunk: 1 }, { cwd: repo });
      assert.equal(readFileSync(m, "utf8"), mine.replace("two", "TWO (agent)"));
      const r = await applyRestore(ledger, await planRestore(ledger, THREAD, { op: op.op }), { cwd: repo });
      assert.equal(readFileSync(m, "utf8"), mine, "Restore of the merge: the user's file as it was");
      assert.deepEqual([...restoredTurns(ledger.read(THREAD))], [[op.op, r.op]]);
    } finally {
      ledger.dispose();
    }
  }));

test("the apply writes through the writer it is given (the editor's), new files with the worktree's mode", () =>
  withRepo({ "a.txt": BASE, "gone.txt": "x\n" }, async (repo, dir) => {
    const made = await createWorktree(repo);
    writeFileSync(join(made.ref.path, "a.txt"), AGENT);
    writeFileSync(join(made.ref.path, "new.sh"), "#!/bin/sh\n", { mode: 0o755 });
    rmSync(join(made.ref.path, "gone.txt"));
    const calls: string[] = [];
    const writer: FileWriter = {
      write: (path, content, mode) => {
        calls.push(`write ${path.slice(repo.length + 1)} ${mode?.toString(8)}`);
        return diskWriter.write(path, content, mode);
      },
      remove: (path) => {
        calls.push(`remove ${path.slice(repo.length + 1)}`);
        return diskWriter.remove(path);
      },
    };
    const ledger = new EditLedger({ home: join(dir, "home") });
    try {
      await applyWorktree(ledger, THREAD, await planApply(made.ref), { writer });
      assert.deepEqual(calls.sort(), ["remove gone.txt", "write a.txt 644", "write new.sh 755"]);
      assert.equal(readFileSync(join(repo, "a.txt"), "utf8"), AGENT);
    } finally {
      ledger.dispose();
    }
  }));
