import { test } from "node:test";
import assert from "node:assert/strict";
import { openDatabase } from "../../../../src/core/db/sqlite";
import { openRecall } from "../../../../src/core/recall/recall";
import { SessionFacts } from "../../../../src/core/recall/session-facts";
import { makeWorld, writeRollout } from "./helpers";

test("cached session facts are re-read after a commit by this connection or by another one", () => {
  const w = makeWorld();
  const writer = openRecall(w.home);
  const db = openDatabase(writer.dbPath);
  try {
    writeRollout(w, "facts1", w.repoA, [{ role: "user", text: "first session" }]);
    writer.importCodex({ root: w.codexRoot, allHistory: true });
    const facts = new SessionFacts();
    const before = facts.all(db).size;
    assert.equal(facts.all(db), facts.all(db), "unchanged index: the same cached map");
    writeRollout(w, "facts2", w.repoB, [{ role: "user", text: "second session" }]);
    writer.importCodex({ root: w.codexRoot, allHistory: true }); // another connection commits
    assert.equal(facts.all(db).size, before + 1);
    const cached = facts.all(db);
    db.run("UPDATE sessions SET chars = chars + 1"); // this connection commits
    assert.notEqual(facts.all(db), cached);
  } finally {
    db.close();
    writer.close();
    w.cleanup();
  }
});
