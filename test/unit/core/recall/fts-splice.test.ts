import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeCorpus } from "../../../../bench/recall-corpus";
import { openDatabase } from "../../../../src/core/db/sqlite";
import { decodeStructure, encodeStructure, readVarint, writeVarint } from "../../../../src/core/recall/fts-splice";
import { openRecall } from "../../../../src/core/recall/recall";

test("varints round-trip as SQLite writes them", () => {
  for (const v of [0, 1, 127, 128, 16383, 16384, 2 ** 21, 2 ** 35 + 7, 2 ** 49, 2 ** 53 - 1]) {
    const out: number[] = [];
    writeVarint(out, v);
    assert.deepEqual(readVarint(Uint8Array.from(out), 0), [v, out.length]);
  }
  // the nine-byte form (all high bits set in the first eight): read as 8 × 7 bits then a whole byte
  assert.deepEqual(readVarint(Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x05]), 0), [261, 9]);
  assert.throws(() => writeVarint([], -1));
  assert.throws(() => readVarint(Uint8Array.from([0x81]), 0), /inside a varint/);
});

test("a real index's structure record decodes and encodes back to the same bytes", () => {
  const dir = mkdtempSync(join(tmpdir(), "fts-splice-"));
  try {
    const corpus = writeCorpus(join(dir, "sessions"), 1200);
    const r = openRecall(join(dir, "home"), { shardWorker: false });
    r.importCodex({ root: corpus.root, allHistory: true });
    r.close();
    const db = openDatabase(r.dbPath, { readOnly: true });
    const blob = db.get<{ block: Uint8Array }>("SELECT block FROM msg_fts_data WHERE id = 10")!.block;
    db.close();
    const s = decodeStructure(blob);
    assert.ok(s.levels.some((l) => l.segments.length > 0));
    assert.deepEqual(Buffer.from(encodeStructure(s)), Buffer.from(blob));
    assert.throws(() => decodeStructure(Uint8Array.from([0, 0, 0, 0, 1, 0])), /contentless_delete/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
