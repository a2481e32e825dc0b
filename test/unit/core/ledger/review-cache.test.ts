// Inline review's cache (#35): the watched threads' views and reviewed files are read once with fs/promises and
// kept until the thread records more, so placing hunks while the user types reads nothing; a read that a new turn
// (and its drop) overtook answers only the placement that asked and is never served again.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import fsp from "node:fs/promises";
import { join } from "node:path";
import { keepChange, undoChange } from "../../../../src/core/ledger/review";
import { applyRestore, planRestore } from "../../../../src/core/ledger/restore";
import { KEPT_PATHS, ReviewCache, type PlacedHunk } from "../../../../src/core/ledger/review-cache";
import type { EditLedger } from "../../../../src/core/ledger/edit-ledger";
import { countFsCalls } from "../fs-calls";
import { holdNextLedgerRead, OTHER_THREAD, THREAD, turn, withLedger } from "./helpers";

const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join("");
const TEN = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const text = (edit: Record<number, string> = {}) => lines(...TEN.map((l, i) => edit[i] ?? l));

/** Runs `fn` counting fs/promises' readFile (the paths) and every `fs.*Sync` call (the names). */
async function reads<T>(fn: () => Promise<T>): Promise<{ value: T; files: string[]; sync: string[] }> {
  const { value, paths, sync } = await countFsCalls(fn, ["readFile"]);
  return { value, files: paths, sync };
}

/** A ledger whose thread's turn 1 changed line 2 of a.txt (`text({ 1: "TWO" })`), and a cache over it. */
const afterTurnOne = (fn: (ws: string, f: string, ledger: EditLedger, cache: ReviewCache) => Promise<void>) =>
  withLedger(async (ws, ledger) => {
    const f = join(ws, "a.txt");
    writeFileSync(f, text());
    await turn(ledger, ws, 1, () => writeFileSync(f, text({ 1: "TWO" })));
    await fn(ws, f, ledger, new ReviewCache(ledger));
  });

const where = (placed: PlacedHunk[]) => placed.map((p) => [p.start, p.end, p.file.turn, p.hunk.index]);

test("placing a reviewed file's hunks reads its ledger and versions once; typing in it reads nothing", () =>
  withLedger(async (ws, ledger) => {
    const f = join(ws, "a.txt");
    writeFileSync(f, text());
    await turn(ledger, ws, 1, () => writeFileSync(f, text({ 1: "TWO", 8: "NINE" })));
    await turn(ledger, ws, 1, () => writeFileSync(join(ws, "b.txt"), "other\n"), OTHER_THREAD);
    const cache = new ReviewCache(ledger);
    const first = await reads(() => cache.placed([THREAD, OTHER_THREAD], f, text({ 1: "TWO", 8: "NINE" })));
    assert.deepEqual(where(first.value), [
      [1, 2, 1, 0],
      [8, 9, 1, 1],
    ]);
    assert.deepEqual(first.sync, [], "no synchronous file call");
    assert.equal(first.files.filter((p) => p.endsWith(".jsonl")).length, 2, "each thread's ledger once");
    assert.equal(first.files.length, 4, "and a.txt's two versions (b.txt is not this document)");
    // the user types: a line above the first hunk, then more lines; each keystroke places again
    let typed = text({ 1: "TWO", 8: "NINE" });
    const typing = await reads(async () => {
      const out: PlacedHunk[][] = [];
      for (let i = 0; i < 20; i++) {
        typed = `typed ${i}\n${typed}`;
        out.push(await cache.placed([THREAD, OTHER_THREAD], f, typed));
      }
      return out;
    });
    assert.deepEqual(typing.files, [], "nothing read while typing");
    assert.deepEqual(typing.sync, []);
    assert.deepEqual(where(typing.value.at(-1)!), [
      [21, 22, 1, 0],
      [28, 29, 1, 1],
    ]);
    // a kept hunk: the thread recorded more, so its files are reviewed again
    await keepChange(ledger, THREAD, { op: first.value[0]!.file.op, path: f, hunk: 0 });
    cache.drop(THREAD);
    assert.deepEqual(where(await cache.placed([THREAD], f, typed)), [[28, 29, 1, 1]]);
  }));

test("a placement kept from before a new turn is never served once the thread is dropped", () =>
  afterTurnOne(async (ws, f, ledger, cache) => {
    assert.deepEqual(where(await cache.placed([THREAD], f, text({ 1: "TWO" }))), [[1, 2, 1, 0]]);
    await turn(ledger, ws, 2, () => writeFileSync(f, text({ 1: "TWO", 8: "NINE" })));
    // not dropped yet: what was read is what is shown (the host drops on the ledger's change event)
    assert.deepEqual(where(await cache.placed([THREAD], f, text({ 1: "TWO", 8: "NINE" }))), [[1, 2, 1, 0]]);
    cache.drop(THREAD);
    assert.deepEqual(where(await cache.placed([THREAD], f, text({ 1: "TWO", 8: "NINE" }))), [
      [1, 2, 1, 0],
      [8, 9, 2, 0],
    ]);
    assert.deepEqual(
      (await cache.view(THREAD)).ops.map((o) => o.turn),
      [1, 2],
    );
  }));

test("a ledger read overtaken by a new turn and its drop answers its own placement and is never kept", () =>
  afterTurnOne(async (ws, f, ledger, cache) => {
    // the cache's ledger read has the file's bytes, but answers only once released
    const hold = holdNextLedgerRead();
    const now = text({ 1: "TWO", 8: "NINE" });
    try {
      const old = cache.placed([THREAD], f, now);
      await hold.reached;
      await turn(ledger, ws, 2, () => writeFileSync(f, now));
      cache.drop(THREAD);
      hold.release();
      assert.deepEqual(where(await old), [[1, 2, 1, 0]], "the placement that asked before gets what was read then");
    } finally {
      hold.restore();
    }
    assert.deepEqual(
      where(await cache.placed([THREAD], f, now)),
      [
        [1, 2, 1, 0],
        [8, 9, 2, 0],
      ],
      "the next placement reads again",
    );
  }));

test("a failed read is not kept: the next placement reads again", () =>
  afterTurnOne(async (_ws, f, _ledger, cache) => {
    const table = fsp as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    const readFile = table.readFile!;
    table.readFile = async (...a) => {
      if (String(a[0]).endsWith(".jsonl")) throw Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
      return readFile(...a);
    };
    try {
      await assert.rejects(cache.placed([THREAD], f, text({ 1: "TWO" })), /EIO/);
    } finally {
      table.readFile = readFile;
    }
    assert.deepEqual(where(await cache.placed([THREAD], f, text({ 1: "TWO" }))), [[1, 2, 1, 0]]);
  }));

test("bounded: the reviewed files of only the last KEPT_PATHS documents placed are kept; an older one reads again", () =>
  withLedger(async (ws, ledger) => {
    const paths = Array.from({ length: KEPT_PATHS + 1 }, (_, i) => join(ws, `f${i}.txt`));
    for (const p of paths) writeFileSync(p, text());
    await turn(ledger, ws, 1, () => paths.forEach((p) => writeFileSync(p, text({ 1: "TWO" }))));
    const cache = new ReviewCache(ledger);
    const now = text({ 1: "TWO" });
    const versions = (files: string[]) => files.filter((p) => !p.endsWith(".jsonl")).length;
    for (const p of paths) assert.deepEqual(where(await cache.placed([THREAD], p, now)), [[1, 2, 1, 0]]);
    // the last KEPT_PATHS are kept: placing them again reads nothing
    const kept = await reads(async () => {
      for (const p of paths.slice(1)) await cache.placed([THREAD], p, now);
    });
    assert.deepEqual(kept.files, [], "the most recent documents read nothing");
    // the first was let go when the last came: its two versions are read again (the ledger's view is still kept)
    const again = await reads(() => cache.placed([THREAD], paths[0]!, now));
    assert.deepEqual(where(again.value), [[1, 2, 1, 0]]);
    assert.equal(versions(again.files), 2, again.files.join(", "));
    assert.equal(again.files.length, 2, "the view was not read again");
  }));

test("pending: a thread is pending while a change of it is neither kept, undone nor restored; only hunk-settled files are read", () =>
  withLedger(async (ws, ledger) => {
    const [a, b] = [join(ws, "a.txt"), join(ws, "b.txt")];
    writeFileSync(a, text());
    writeFileSync(b, text());
    await turn(ledger, ws, 1, () => {
      writeFileSync(a, text({ 1: "TWO", 8: "NINE" }));
      writeFileSync(b, text({ 4: "FIVE" }));
    });
    const pending = async () => {
      const cache = new ReviewCache(ledger);
      const r = await reads(() => cache.pending(THREAD));
      return { pending: r.value, versions: r.files.filter((p) => !p.endsWith(".jsonl")).length, sync: r.sync };
    };
    const op = (await ledger.readAsync(THREAD)).ops[0]!.op;
    assert.deepEqual(await pending(), { pending: true, versions: 0, sync: [] }, "nothing recorded: pending, no read");
    await keepChange(ledger, THREAD, { op, path: a, hunk: 0 });
    await keepChange(ledger, THREAD, { op, path: b, hunk: null });
    assert.deepEqual(await pending(), { pending: true, versions: 2, sync: [] }, "a.txt's hunk 1 is still pending");
    await undoChange(ledger, THREAD, { op, path: a, hunk: 1 }, { cwd: ws });
    assert.deepEqual(await pending(), { pending: false, versions: 2, sync: [] }, "kept, undone: nothing left");
    // a thread whose turn changed nothing, and one never recorded, have nothing to review
    assert.equal(await new ReviewCache(ledger).pending(OTHER_THREAD), false);
  }));

test("pending: a restored turn has nothing left to review; undoing the restore makes it pending again", () =>
  afterTurnOne(async (ws, f, ledger) => {
    const cache = new ReviewCache(ledger);
    assert.equal(await cache.pending(THREAD), true);
    const restore = await applyRestore(ledger, await planRestore(ledger, THREAD, { turn: 1 }), { cwd: ws });
    cache.drop(THREAD);
    assert.equal(await cache.pending(THREAD), false, "the turn was restored");
    assert.deepEqual(await cache.placed([THREAD], f, text()), [], "nothing placed either");
    await applyRestore(ledger, await planRestore(ledger, THREAD, { op: restore.op }), { cwd: ws });
    cache.drop(THREAD);
    assert.equal(await cache.pending(THREAD), true, "the restore undone: its turn is in effect again");
  }));
