// A turn's end on the extension host reads the thread's ledger without a synchronous file call (#24: the host's
// thread never waits on the disk in a recurring path; the ledger grows all day and was read whole per turn).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs, { writeFileSync } from "node:fs";
import { join } from "node:path";
import { turn, withLedger, THREAD } from "./helpers";

test("ending a turn reads the ledger asynchronously: no readFileSync of a ledger file, the op is returned", () =>
  withLedger(async (ws, ledger) => {
    await turn(ledger, ws, 1, () => writeFileSync(join(ws, "a.txt"), "one\n"));
    const read = fs.readFileSync;
    const ledgerReads: string[] = [];
    fs.readFileSync = ((path: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (typeof path === "string" && path.endsWith(".jsonl")) ledgerReads.push(path);
      return (read as (...a: unknown[]) => unknown)(path, ...rest);
    }) as typeof fs.readFileSync;
    let op;
    try {
      op = await turn(ledger, ws, 2, () => writeFileSync(join(ws, "b.txt"), "two\n"));
    } finally {
      fs.readFileSync = read;
    }
    assert.deepEqual(ledgerReads, []);
    assert.equal(op.turn, 2);
    assert.deepEqual(
      op.files.map((f) => f.path),
      [join(ws, "b.txt")],
    );
    // the same view as the synchronous read
    assert.deepEqual(
      ledger.read(THREAD).ops.find((o) => o.op === op.op),
      op,
    );
  }));
