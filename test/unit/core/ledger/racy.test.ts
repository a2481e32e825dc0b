// The tracker's racy files (racy.ts): a file whose stat was taken within the timestamp tick of its last change
// stays racy until a later stat is older than that; a sync knows which ones it has looked at.
import { test } from "node:test";
import assert from "node:assert/strict";
import { isRacy, RacyFiles } from "../../../../src/core/ledger/racy";
import { RACY_MS } from "../../../../src/core/ledger/walk-cache";

const stat = (mtimeMs: number) => ({ size: 1, mtimeMs, ino: 1 });

test("a stat taken within RACY_MS of the file's mtime is racy, an older one is not", () => {
  assert.equal(isRacy(stat(10_000), 10_000 + RACY_MS - 1), true);
  assert.equal(isRacy(stat(10_000), 10_000 + RACY_MS), false);
});

test("a file stays racy until a stat of it is older than the tick, and leaves when gone", () => {
  const racy = new RacyFiles();
  racy.stamped("a", stat(1_000), 1_500);
  racy.stamped("b", stat(1_000), 1_000 + RACY_MS);
  assert.deepEqual([...racy.paths()], ["a"]);
  racy.stamped("a", stat(1_000), 5_000);
  assert.equal(racy.has("a"), false);
  racy.stamped("a", stat(4_000), 4_100);
  racy.delete("a");
  assert.equal(racy.has("a"), false);
});

test("a sync's unseen racy files are the ones it has not looked at; dropUnseen forgets them", () => {
  const racy = new RacyFiles();
  for (const rel of ["a", "b", "c"]) racy.stamped(rel, stat(1_000), 1_000);
  racy.startSync();
  racy.saw("b");
  assert.deepEqual(racy.unseen(), ["a", "c"]);
  racy.saw("a");
  racy.dropUnseen();
  assert.deepEqual([...racy.paths()], ["a", "b"]);
  racy.startSync(); // a new sync has seen nothing yet
  assert.deepEqual(racy.unseen(), ["a", "b"]);
  racy.clear();
  assert.deepEqual(racy.unseen(), []);
});
