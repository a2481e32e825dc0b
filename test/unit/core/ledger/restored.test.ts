// Restore leaves a true state (#27 item 8): which turns a restore took back (and an undone restore gives back),
// the turns a restore plan names per file, and Keep all of a turn recorded as the individual keeps would be.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { findTurn } from "../../../../src/core/ledger/ledger-view";
import { applyRestore, planRestore } from "../../../../src/core/ledger/restore";
import { restoredTurns } from "../../../../src/core/ledger/restored";
import { keepAllOf, keepChange, reviewOpAsync } from "../../../../src/core/ledger/review";
import { THREAD, turn, withLedger } from "./helpers";

const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join("");
const BEFORE = lines("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten");
const AFTER = lines("one", "TWO", "three", "four", "five", "six", "seven", "eight", "NINE", "ten");

test("a restore takes back its turn and the later ones; restoring the restore away gives them back", () =>
  withLedger(async (ws, ledger) => {
    const a = join(ws, "a.txt");
    const b = join(ws, "b.txt");
    writeFileSync(a, "a0\n");
    await turn(ledger, ws, 1, () => writeFileSync(a, "a1\n"));
    await turn(ledger, ws, 2, () => writeFileSync(b, "b2\n"));
    await turn(ledger, ws, 3, () => writeFileSync(a, "a3\n"));
    assert.deepEqual([...restoredTurns(ledger.read(THREAD))], []);
    const plan = await planRestore(ledger, THREAD, { turn: 2 });
    assert.deepEqual(
      plan.items.map((i) => [i.path, i.turns]),
      [
        [a, [3]],
        [b, [2]],
      ],
      "each file names the turns (from the target on) that changed it",
    );
    const r = await applyRestore(ledger, plan, { cwd: ws });
    assert.deepEqual(
      [...restoredTurns(ledger.read(THREAD))],
      [
        ["turn-2", r.op],
        ["turn-3", r.op],
      ],
    );
    // restoring further back: turn 1 too, by the new restore
    const r2 = await applyRestore(ledger, await planRestore(ledger, THREAD, { turn: 1 }), { cwd: ws });
    assert.deepEqual([...restoredTurns(ledger.read(THREAD))].sort(), [
      ["turn-1", r2.op],
      ["turn-2", r2.op],
      ["turn-3", r2.op],
    ]);
    // undoing the second restore: back to after the first (turns 2 and 3 still restored by it)
    await applyRestore(ledger, await planRestore(ledger, THREAD, { op: r2.op }), { cwd: ws });
    assert.deepEqual([...restoredTurns(ledger.read(THREAD))].sort(), [
      ["turn-2", r.op],
      ["turn-3", r.op],
    ]);
    // undoing the first: nothing restored
    await applyRestore(ledger, await planRestore(ledger, THREAD, { op: r.op }), { cwd: ws });
    assert.deepEqual([...restoredTurns(ledger.read(THREAD))], []);
  }));

test("Keep all keeps every pending hunk of the turn, as review records; a second time keeps nothing", () =>
  withLedger(async (ws, ledger) => {
    const f = join(ws, "a.txt");
    const g = join(ws, "new.txt");
    writeFileSync(f, BEFORE);
    await turn(ledger, ws, 1, () => {
      writeFileSync(f, AFTER);
      writeFileSync(g, "created\n");
    });
    await keepChange(ledger, THREAD, { op: "turn-1", path: f, hunk: 0 });
    assert.equal(await keepAllOf(ledger, THREAD, "turn-1"), 2, "hunk 2 of a.txt and new.txt's one hunk");
    const view = ledger.read(THREAD);
    const files = await reviewOpAsync(ledger, view, findTurn(view, 1)!);
    assert.deepEqual(
      files.map((x) => [x.path, x.status, x.hunks.map((h) => h.status)]),
      [
        [f, "kept", ["kept", "kept"]],
        [g, "kept", ["kept"]],
      ],
    );
    assert.equal(await keepAllOf(ledger, THREAD, "turn-1"), 0);
    await assert.rejects(keepAllOf(ledger, THREAD, "turn-9"), /no operation turn-9/);
  }));
