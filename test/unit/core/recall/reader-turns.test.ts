/**
 * Readers before the importer (reader-turns.ts): whose markers make an importer wait, and when it lets go.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { spawnSync } from "node:child_process";
import { openDatabase } from "../../../../src/core/db/sqlite";
import { readersWaiting, wantRead } from "../../../../src/core/recall/reader-turns";
import { openRecall } from "../../../../src/core/recall/recall";
import { BATCH, RecallWriter } from "../../../../src/core/recall/writer";

function withDb(fn: (dbPath: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "reader-turns-"));
  try {
    fn(join(dir, "recall.sqlite"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("this thread's own read marker never makes this thread's import wait (a rebuild inside a search)", () =>
  withDb((dbPath) => {
    assert.equal(readersWaiting(dbPath), false);
    const done = wantRead(dbPath);
    assert.equal(readdirSync(`${dbPath}.readers`).length, 1, "the marker is there for other threads and processes");
    assert.equal(readersWaiting(dbPath), false);
    done();
    assert.equal(readdirSync(`${dbPath}.readers`).length, 0);
  }));

test("another thread's or a live process's marker makes the importer wait; a dead process's is removed", () =>
  withDb((dbPath) => {
    const dir = `${dbPath}.readers`;
    mkdirSync(dir, { recursive: true });
    const otherThread = join(dir, `${process.pid}-otherthr-0`);
    writeFileSync(otherThread, "");
    assert.equal(readersWaiting(dbPath), true);
    rmSync(otherThread);
    const ppid = join(dir, `${process.ppid}-x-0`);
    writeFileSync(ppid, "");
    assert.equal(readersWaiting(dbPath), true);
    rmSync(ppid);
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    const dead = join(dir, `${gone.stdout}-x-0`);
    writeFileSync(dead, "");
    assert.equal(readersWaiting(dbPath), false);
    assert.equal(existsSync(dead), false, "a dead reader's marker is cleaned up");
  }));

test("an import's batch ends early when a reader waits, and runs to BATCH when none does", () =>
  withDb((dbPath) => {
    const recall = openRecall(dirname(dbPath), { dbPath });
    recall.close();
    const db = openDatabase(dbPath);
    try {
      const writer = new RecallWriter(db);
      /** Writes up to `n` messages; how many were written when the writer first asked to commit, or -1. */
      const write = (n: number) => {
        for (let seq = 0; seq < n; seq++) {
          writer.message(1, { role: "user", kind: "text", content: `message ${seq}`, line: seq + 1, seq });
          if (writer.batchFull) return seq + 1;
        }
        return -1;
      };
      assert.equal(write(BATCH - 1), -1, "nobody waits: the batch runs on");
      writer.rollback();
      // a reader of another process waits for the file
      const marker = join(`${dbPath}.readers`, `${process.ppid}-reader-0`);
      mkdirSync(dirname(marker), { recursive: true });
      writeFileSync(marker, "");
      const early = write(BATCH);
      assert.ok(early > 0 && early <= 100, `the batch ended after ${early} messages`);
      writer.rollback();
    } finally {
      db.close();
    }
  }));
