// Hunks of a recorded change, Keep / Undo per hunk and per file (three-way, later edits survive), a unified
// patch git can apply, and line provenance that survives a new index and ages out under hand edits.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { unifiedDiff } from "../../../../src/core/ledger/hunks";
import { findTurn } from "../../../../src/core/ledger/ledger-view";
import { ProvenanceIndex } from "../../../../src/core/ledger/provenance";
import { applyRestore, planRestore } from "../../../../src/core/ledger/restore";
import { keepChange, reviewOpAsync, undoChange } from "../../../../src/core/ledger/review";
import { OTHER_THREAD, THREAD, turn, withLedger } from "./helpers";

const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join("");
const BEFORE = lines("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten");
const AFTER = lines("one", "TWO", "three", "four", "five", "six", "seven", "eight", "NINE", "ten", "eleven");

test("a change's hunks; keep one, undo another: the file keeps everything else, later edits survive", () =>
  withLedger(async (ws, ledger) => {
    const f = join(ws, "a.txt");
    writeFileSync(f, BEFORE);
    await turn(ledger, ws, 1, () => writeFileSync(f, AFTER));
    let [file] = await reviewOpAsync(ledger, ledger.read(THREAD), findTurn(ledger.read(THREAD), 1)!);
    assert.deepEqual(
      file.hunks.map((h) => [h.beforeStart, h.beforeEnd, h.afterStart, h.afterEnd, h.status]),
      [
        [1, 2, 1, 2, "pending"],
        [8, 9, 8, 9, "pending"],
        [10, 10, 10, 11, "pending"],
      ],
    );
    // the user edits line 5 afterwards; undoing hunk 1 must keep that edit
    writeFileSync(f, AFTER.replace("five", "FIVE by hand"));
    await keepChange(ledger, THREAD, { op: "turn-1", path: f, hunk: 1 });
    const undo = await undoChange(ledger, THREAD, { op: "turn-1", path: f, hunk: 0 }, { cwd: ws });
    assert.equal(
      readFileSync(f, "utf8"),
      BEFORE.replace("five", "FIVE by hand").replace("nine\nten\n", "NINE\nten\neleven\n"),
    );
    [file] = await reviewOpAsync(ledger, ledger.read(THREAD), findTurn(ledger.read(THREAD), 1)!);
    assert.deepEqual(
      file.hunks.map((h) => h.status),
      ["undone", "kept", "pending"],
    );
    assert.equal(file.status, "pending");
    // an undo is an operation: restoring to before it brings the hunk back
    await applyRestore(ledger, await planRestore(ledger, THREAD, { op: undo.op }), { cwd: ws });
    assert.equal(readFileSync(f, "utf8"), AFTER.replace("five", "FIVE by hand"));
  }));

test("undo refuses when the hunk's lines were edited since, and writes nothing", () =>
  withLedger(async (ws, ledger) => {
    const f = join(ws, "a.txt");
    writeFileSync(f, BEFORE);
    await turn(ledger, ws, 1, () => writeFileSync(f, AFTER));
    const edited = AFTER.replace("TWO", "TWO and more");
    writeFileSync(f, edited);
    await assert.rejects(
      undoChange(ledger, THREAD, { op: "turn-1", path: f, hunk: 0 }, { cwd: ws }),
      /cannot undo hunk 1 of .*a\.txt: line 2 was changed since/,
    );
    assert.equal(readFileSync(f, "utf8"), edited);
  }));

test("undo of a whole file: a created file is deleted, a deleted one comes back", () =>
  withLedger(async (ws, ledger) => {
    writeFileSync(join(ws, "gone.txt"), "keep me\n");
    await turn(ledger, ws, 1, () => {
      writeFileSync(join(ws, "new.txt"), "new\n");
      execFileSync("rm", [join(ws, "gone.txt")]);
    });
    await undoChange(ledger, THREAD, { op: "turn-1", path: join(ws, "new.txt"), hunk: null }, { cwd: ws });
    await undoChange(ledger, THREAD, { op: "turn-1", path: join(ws, "gone.txt"), hunk: null }, { cwd: ws });
    assert.equal(existsSync(join(ws, "new.txt")), false);
    assert.equal(readFileSync(join(ws, "gone.txt"), "utf8"), "keep me\n");
    const files = await reviewOpAsync(ledger, ledger.read(THREAD), findTurn(ledger.read(THREAD), 1)!);
    assert.deepEqual(
      files.map((x) => x.status),
      ["undone", "undone"],
    );
  }));

test("the unified patch applies with git apply", () =>
  withLedger(async (ws) => {
    execFileSync("git", ["init", "-q"], { cwd: ws });
    writeFileSync(join(ws, "a.txt"), BEFORE);
    writeFileSync(join(ws, "old.txt"), "x\ny");
    const patch =
      unifiedDiff("a.txt", BEFORE, AFTER) +
      unifiedDiff("new.txt", null, "hello\n") +
      unifiedDiff("old.txt", "x\ny", null);
    writeFileSync(join(ws, "p.patch"), patch);
    execFileSync("git", ["apply", "p.patch"], { cwd: ws });
    assert.equal(readFileSync(join(ws, "a.txt"), "utf8"), AFTER);
    assert.equal(readFileSync(join(ws, "new.txt"), "utf8"), "hello\n");
    assert.equal(existsSync(join(ws, "old.txt")), false);
  }));

test("provenance: lines carry the thread and turn that wrote them, across threads; hand edits age out", () =>
  withLedger(async (ws, ledger) => {
    const f = join(ws, "a.txt");
    writeFileSync(f, lines("a", "b", "c"));
    await turn(ledger, ws, 1, () => writeFileSync(f, lines("a", "B1", "c")));
    await turn(ledger, ws, 4, () => writeFileSync(f, lines("a", "B1", "c", "D2")), OTHER_THREAD);
    writeFileSync(f, lines("a by hand", "B1", "c", "D2"));
    const now = readFileSync(f, "utf8");
    const who = async (index: ProvenanceIndex) =>
      (await index.linesOf(f, now)).map((o) => (o ? `${o.threadId.slice(-1)}:${o.turn}:${o.agent?.name}` : null));
    assert.deepEqual(await who(new ProvenanceIndex(ledger)), [null, "a:1:Fake", null, "b:4:Fake"]);
    // a fresh index (a reload) reads the same from the ledgers
    assert.deepEqual(await who(new ProvenanceIndex(ledger)), [null, "a:1:Fake", null, "b:4:Fake"]);
    // editing the agent's line by hand takes it out
    const edited = await new ProvenanceIndex(ledger).linesOf(f, lines("a by hand", "B1 edited", "c", "D2"));
    assert.deepEqual(
      edited.map((o) => o?.turn ?? null),
      [null, null, null, 4],
    );
  }));
