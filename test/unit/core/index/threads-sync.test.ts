/**
 * The threads index's sync without a stat per thread (#36, threads-sync.ts): a quiet folder reads nothing, the
 * change journal names what writers of this version touched, and anything it cannot explain (an older version's
 * writes, a lost journal) falls back to stat-ing every file, so the index is never trusted over the files.
 */
import assert from "node:assert/strict";
import { appendFileSync, copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { openSyncedIndex, syncThreadIndex, type ThreadIndex } from "../../../../src/core/index/threads-index";
import { changeJournalPath } from "../../../../src/core/store/change-journal";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { startInput, withTmp } from "../store/helpers";

function seed(store: ThreadStore, cwd: string, title: string): string {
  const h = store.create(startInput(cwd, { title }));
  h.close();
  return h.threadId;
}

/** What an older version (no change journal) does: takes the lock, appends a record, lets go. */
function olderWriterPatch(store: ThreadStore, id: string, title: string, ts = new Date().toISOString()): void {
  const path = store.pathFor(id);
  writeFileSync(`${path}.lock`, JSON.stringify({ pid: 999999 }));
  appendFileSync(path, JSON.stringify({ v: 1, ts, kind: "meta_patch", patch: { title } }) + "\n");
  rmSync(`${path}.lock`);
}

function withSynced(fn: (store: ThreadStore, index: ThreadIndex, dir: string) => void) {
  return withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    seed(store, dir, "first");
    const { index } = openSyncedIndex(store);
    try {
      fn(store, index, dir);
    } finally {
      index.close();
    }
  });
}

const titles = (index: ThreadIndex) =>
  index
    .list({ archived: "include" })
    .map((t) => t.title)
    .sort();

test("a thread another process of this version writes is found from the journal and one listing, then nothing is read", () =>
  withSynced((store, index, dir) => {
    const other = new ThreadStore(store.home);
    const id = seed(other, dir, "from another window");
    const s1 = syncThreadIndex(index, store);
    assert.equal(s1.path, "listing");
    assert.equal(s1.fullRead, 1, "only the new thread is read");
    assert.deepEqual(titles(index), ["first", "from another window"]);
    other.patchMetadata(id, { title: "renamed elsewhere" });
    const s2 = syncThreadIndex(index, store);
    assert.equal(s2.path, "listing");
    assert.equal(s2.scanned, 1);
    assert.deepEqual(titles(index), ["first", "renamed elsewhere"]);
    other.delete(id);
    assert.equal(syncThreadIndex(index, store).removed, 1);
    const quiet = syncThreadIndex(index, store);
    assert.deepEqual([quiet.path, quiet.scanned], ["journal", 0]);
  }));

test("an older version's write (no journal line) makes the next sync stat every file, and it is seen", () =>
  withSynced((store, index, dir) => {
    const id = store.list()[0]!.threadId;
    olderWriterPatch(store, id, "changed by an older version");
    const s = syncThreadIndex(index, store);
    assert.equal(s.path, "full");
    assert.deepEqual(titles(index), ["changed by an older version"]);
    // a thread file an older version created
    const copy = seed(new ThreadStore(join(dir, "elsewhere")), dir, "made elsewhere");
    copyFileSync(new ThreadStore(join(dir, "elsewhere")).pathFor(copy), store.pathFor(copy));
    assert.equal(syncThreadIndex(index, store).path, "full");
    assert.deepEqual(titles(index), ["changed by an older version", "made elsewhere"]);
  }));

test("a thread held open at the last sync and closed by an older version is read once more, even when the journal grew meanwhile", () =>
  withSynced((store, index, dir) => {
    const id = store.list()[0]!.threadId;
    const path = store.pathFor(id);
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 999999 }));
    syncThreadIndex(index, store); // sees the lock
    appendFileSync(
      path,
      JSON.stringify({ v: 1, ts: new Date().toISOString(), kind: "meta_patch", patch: { title: "late" } }) + "\n",
    );
    rmSync(`${path}.lock`);
    seed(store, dir, "journaled meanwhile"); // the journal grew: the "listing" path
    const s = syncThreadIndex(index, store);
    assert.equal(s.path, "listing");
    assert.deepEqual(titles(index), ["journaled meanwhile", "late"]);
  }));

test("a lost or rewritten journal is not trusted: the next sync stats every file", () =>
  withSynced((store, index, dir) => {
    const journal = changeJournalPath(store.layout.threadIndexDb);
    seed(store, dir, "second");
    rmSync(journal);
    assert.equal(syncThreadIndex(index, store).path, "full");
    assert.deepEqual(titles(index), ["first", "second"]);
    seed(store, dir, "third");
    syncThreadIndex(index, store);
    // a journal shorter than where the index stopped (replaced by another file) is not read from that offset
    writeFileSync(journal, "x\n");
    const id = store.list().find((m) => m.title === "first")!.threadId;
    olderWriterPatch(store, id, "first, again");
    assert.equal(syncThreadIndex(index, store).path, "full");
    assert.deepEqual(titles(index), ["first, again", "second", "third"]);
  }));

test("journal lines that are not thread ids are ignored", () =>
  withSynced((store, index) => {
    const journal = changeJournalPath(store.layout.threadIndexDb);
    appendFileSync(journal, "../../../etc/passwd\nnot-an-id\n");
    const s = syncThreadIndex(index, store);
    assert.equal(s.failed, 0);
    assert.deepEqual(titles(index), ["first"]);
    assert.match(readFileSync(journal, "utf8"), /passwd/, "the journal is the index's to read, not to fix");
  }));
