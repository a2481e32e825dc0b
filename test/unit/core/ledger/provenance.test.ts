// The provenance index reads the ledgers and blobs with fs/promises: what it reads and when (once per ledger until
// invalidated, hovers at once sharing one read, a read overtaken by an invalidate never kept), and a torn ledger
// line or a tampered blob skipped as the sync reads skip them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import fsp from "node:fs/promises";
import { join } from "node:path";
import { ProvenanceIndex } from "../../../../src/core/ledger/provenance";
import type { Logger } from "../../../../src/core/log";
import { holdNextLedgerRead, OTHER_THREAD, THREAD, turn, withLedger } from "./helpers";

const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join("");

/** Runs `fn` with fs/promises' readdir and readFile counted: the paths read (a folder listed is `dir:`). */
async function reads(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const table = fsp as unknown as Record<string, (...a: unknown[]) => unknown>;
  const saved = { readdir: table.readdir!, readFile: table.readFile! };
  table.readdir = (...a) => (seen.push(`dir:${String(a[0])}`), saved.readdir(...a));
  table.readFile = (...a) => (seen.push(String(a[0])), saved.readFile(...a));
  try {
    await fn();
  } finally {
    Object.assign(table, saved);
  }
  return seen;
}

const turns = (origins: Awaited<ReturnType<ProvenanceIndex["linesOf"]>>) =>
  origins.map((o) => (o ? `${o.threadId.slice(-1)}:${o.turn}` : null));

test("a ledger changed between two hovers is read again (that one only); nothing is read while none changed", () =>
  withLedger(async (ws, ledger) => {
    const f = join(ws, "a.txt");
    writeFileSync(f, lines("a", "b"));
    await turn(ledger, ws, 1, () => writeFileSync(f, lines("a", "B1")));
    await turn(ledger, ws, 2, () => writeFileSync(join(ws, "other.txt"), "x\n"), OTHER_THREAD);
    const index = new ProvenanceIndex(ledger);
    let got: (string | null)[] = [];
    const first = await reads(async () => (got = turns(await index.linesOf(f, lines("a", "B1")))));
    assert.deepEqual(got, [null, "a:1"]);
    assert.equal(first.filter((p) => p.startsWith("dir:")).length, 1, "the folder listed once");
    assert.equal(first.filter((p) => p.endsWith(".jsonl")).length, 2, "each ledger read once");
    assert.deepEqual(await reads(() => index.linesOf(f, lines("a", "B1", "typed"))), [], "nothing changed");
    // another turn of the first thread: only its ledger is read again (and the folder, and the versions)
    await turn(ledger, ws, 3, () => writeFileSync(f, lines("a", "B1", "C3")));
    assert.deepEqual(
      turns(await index.linesOf(f, lines("a", "B1", "C3"))),
      [null, "a:1", null],
      "not invalidated: what was read stands",
    );
    index.invalidate(THREAD);
    const again = await reads(async () => (got = turns(await index.linesOf(f, lines("a", "B1", "C3")))));
    assert.deepEqual(got, [null, "a:1", "a:3"]);
    assert.deepEqual(
      again.filter((p) => p.endsWith(".jsonl")),
      [ledger.pathOf(THREAD)],
      "the other thread's ledger is not read again",
    );
  }));

test("hovers at once share one read", () =>
  withLedger(async (ws, ledger) => {
    const f = join(ws, "a.txt");
    writeFileSync(f, lines("a"));
    await turn(ledger, ws, 1, () => writeFileSync(f, lines("A1")));
    const index = new ProvenanceIndex(ledger);
    const together = await reads(() =>
      Promise.all([index.linesOf(f, lines("A1")), index.linesOf(f, lines("A1", "b")), index.linesOf(f, "")]),
    );
    assert.equal(together.filter((p) => p.startsWith("dir:")).length, 1);
    assert.equal(together.filter((p) => p.endsWith(".jsonl")).length, 1);
  }));

test("a ledger read overtaken by an append and its invalidate answers its own hover and is never kept", () =>
  withLedger(async (ws, ledger) => {
    const f = join(ws, "a.txt");
    writeFileSync(f, lines("a", "b"));
    await turn(ledger, ws, 1, () => writeFileSync(f, lines("A1", "b")));
    const index = new ProvenanceIndex(ledger);
    // the index's ledger read has the file's bytes, but answers only once released
    const hold = holdNextLedgerRead();
    try {
      const old = index.linesOf(f, lines("A1", "B2"));
      await hold.reached;
      await turn(ledger, ws, 2, () => writeFileSync(f, lines("A1", "B2")));
      index.invalidate(THREAD);
      hold.release();
      assert.deepEqual(turns(await old), ["a:1", null], "the hover that asked before gets what was read then");
    } finally {
      hold.restore();
    }
    assert.deepEqual(turns(await index.linesOf(f, lines("A1", "B2"))), ["a:1", "a:2"], "the next hover reads again");
  }));

test("a torn or bad ledger line is skipped (with a warning); a tampered version reads as not kept", () => {
  const warnings: string[] = [];
  const logger = { warn: (m: string) => void warnings.push(m) } as unknown as Logger;
  return withLedger(
    async (ws, ledger) => {
      const f = join(ws, "a.txt");
      writeFileSync(f, lines("a", "b"));
      await turn(ledger, ws, 1, () => writeFileSync(f, lines("a", "B1")));
      const answer = turns(await new ProvenanceIndex(ledger).linesOf(f, lines("a", "B1")));
      assert.deepEqual(answer, [null, "a:1"]);
      appendFileSync(ledger.pathOf(THREAD), 'not json\n{"kind":"change","op":"tur');
      assert.deepEqual(turns(await new ProvenanceIndex(ledger).linesOf(f, lines("a", "B1"))), answer);
      assert.equal(warnings.filter((w) => w.startsWith(`ledger ${THREAD}`)).length, 2, warnings.join("\n"));
      // the turn's later version no longer matches its id: the change is not replayed, no line is claimed
      const after = ledger.read(THREAD).ops[0]!.files[0]!.after!;
      const blob = ledger.blobs.pathOf(after.id!);
      writeFileSync(blob, readFileSync(blob, "utf8").replace("B1", "B2"));
      assert.equal(await ledger.blobs.getTextAsync(after.id!), undefined);
      assert.deepEqual(turns(await new ProvenanceIndex(ledger).linesOf(f, lines("a", "B1"))), [null, null]);
    },
    { logger },
  );
});
