/**
 * Readers before the importer (reader-turns.ts): whose markers make an importer wait.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { readersWaiting, wantRead } from "../../../../src/core/recall/reader-turns";

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
