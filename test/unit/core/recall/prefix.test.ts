import { test } from "node:test";
import assert from "node:assert/strict";
import { openDatabase } from "../../../../src/core/db/sqlite";
import { expandPrefix, MAX_EXPANSIONS } from "../../../../src/core/recall/prefix";
import { openRecall } from "../../../../src/core/recall/recall";
import { makeWorld, writeRollout } from "./helpers";

test("a one-word prefix query becomes the OR of its terms, and finds exactly the same rows", () => {
  const w = makeWorld();
  try {
    const many = Array.from({ length: MAX_EXPANSIONS + 1 }, (_, i) => `manyword${String.fromCharCode(97 + i)}`);
    writeRollout(w, "p1", w.repoA, [
      { role: "user", text: "bzs bzsepp and kmgosge" },
      { role: "assistant", text: "bzsqq only, then zzzab" },
      { role: "user", text: `kmgosge again, ${many.join(" ")}` },
      { role: "assistant", text: "a word_with_underscore and 数据库 text" },
    ]);
    const r = openRecall(w.home, { shardWorker: false });
    r.importCodex({ root: w.codexRoot, allHistory: true });
    r.close();
    const db = openDatabase(r.dbPath, { readOnly: true });
    try {
      const rows = (q: string) =>
        db
          .all<{ rowid: number }>("SELECT rowid FROM msg_fts WHERE msg_fts MATCH ? ORDER BY rowid", q)
          .map((x) => x.rowid);
      const cases: [string, string][] = [
        ['"bzs"*', '"bzs" OR "bzsepp" OR "bzsqq"'],
        ['"kmgosge"*', '"kmgosge"'],
        ['"zzz"*', '"zzz" OR "zzzab"'], // the word itself is no term: its longer terms still count
        ['"nothinglikeit"*', '"nothinglikeit"'],
        ['"word"*', '"word" OR "word_with_underscore"'],
        ['"manyword"*', '"manyword"*'], // more than MAX_EXPANSIONS: the prefix query stays
        ['"bzs kmgosge"*', '"bzs kmgosge"*'], // phrases are left alone
        ['"bzs"', '"bzs"'],
        ['"数据 据库"', '"数据 据库"'],
      ];
      db.read(() => {
        for (const [q, expected] of cases) {
          const out = expandPrefix(db, q);
          assert.equal(out, expected, q);
          assert.deepEqual(rows(out), rows(q), `${q} finds the same rows`);
        }
      });
      assert.ok(rows('"bzs"*').length >= 2);
    } finally {
      db.close();
    }
  } finally {
    w.cleanup();
  }
});
