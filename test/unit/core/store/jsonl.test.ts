import assert from "node:assert/strict";
import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { readRecords } from "../../../../src/core/store/jsonl-reader";
import { JsonlWriter } from "../../../../src/core/store/jsonl-writer";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { exitOf, spawnChild, startInput, waitForLine, withTmp } from "./helpers";

const msg = (i: number) => ({ kind: "agent_message" as const, messageId: `m${i}`, text: `text ${i}` });

test("a torn last line is skipped with a warning and the writer repairs it before appending", () =>
  withTmp((dir) => {
    const path = join(dir, "t.jsonl");
    const w = JsonlWriter.open(path);
    w.append(msg(1));
    w.append(msg(2));
    w.close();
    appendFileSync(path, '{"v":1,"ts":"2026-01-01T00:00:00.000Z","kind":"agent_mes');
    const torn = readRecords(path);
    assert.equal(torn.records.length, 2);
    assert.ok(torn.tornBytes > 0);
    assert.match(torn.warnings[0]!.message, /torn last line/);
    assert.equal(torn.endOffset, torn.size - torn.tornBytes);

    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (m: string) => warnings.push(m) };
    const w2 = JsonlWriter.open(path, { logger });
    w2.append(msg(3));
    w2.close();
    assert.match(warnings.join(), /dropped a torn last line/);
    const after = readRecords(path);
    assert.deepEqual(
      after.records.map((r) => (r as { messageId: string }).messageId),
      ["m1", "m2", "m3"],
    );
    assert.equal(after.warnings.length, 0);
  }));

test("a bad line in the middle is skipped with a warning and the rest still reads", () =>
  withTmp((dir) => {
    const path = join(dir, "t.jsonl");
    const w = JsonlWriter.open(path);
    w.append(msg(1));
    w.close();
    appendFileSync(path, "garbage\n");
    const w2 = JsonlWriter.open(path);
    w2.append(msg(2));
    w2.close();
    const res = readRecords(path);
    assert.equal(res.records.length, 2);
    assert.equal(res.warnings.length, 1);
    assert.match(res.warnings[0]!.message, /skipped bad line: invalid JSON/);
  }));

test("reading from a byte offset returns only the records after it", () =>
  withTmp((dir) => {
    const path = join(dir, "t.jsonl");
    const w = JsonlWriter.open(path);
    w.append(msg(1));
    const mid = w.size;
    w.append(msg(2));
    w.close();
    const res = readRecords(path, mid);
    assert.deepEqual(
      res.records.map((r) => (r as { messageId: string }).messageId),
      ["m2"],
    );
    assert.equal(
      readRecords(path, 10 ** 9).records.length,
      2,
      "an offset past the end (file shrank) reads the whole file",
    );
  }));

test("a second writer in the same process is refused with a clear error", () =>
  withTmp((dir) => {
    const path = join(dir, "t.jsonl");
    const w = JsonlWriter.open(path);
    assert.throws(() => JsonlWriter.open(path), /already being written by process \d+; only one writer/);
    w.close();
    JsonlWriter.open(path).close();
  }));

test("thread files are created 0600 in a 0700 folder", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir));
    h.close();
    assert.equal(statSync(h.path).mode & 0o777, 0o600);
    assert.equal(statSync(store.threadsDir).mode & 0o777, 0o700);
  }));

test("a writer in another process blocks this one, and a kill -9 mid-write leaves a thread that reopens cleanly", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir));
    h.close();
    const child = spawnChild(["write", store.home, h.threadId]);
    try {
      await waitForLine(child, /^locked$/);
      assert.throws(() => store.open(h.threadId), new RegExp(`already being written by process ${child.pid}`));
      await new Promise((r) => setTimeout(r, 300)); // let it write a few MB
    } finally {
      child.kill("SIGKILL");
      await exitOf(child);
    }
    const before = readRecords(h.path);
    assert.ok(before.records.length > 1, "records written before the kill survive");
    const reopened = store.open(h.threadId); // stale lock taken over, torn tail (if any) repaired
    reopened.append({ kind: "turn_end", stopReason: "cancelled" });
    reopened.close();
    const after = readRecords(h.path);
    assert.equal(after.tornBytes, 0);
    assert.equal(after.warnings.length, 0);
    assert.equal(after.records.length, before.records.length + 1);
    assert.equal(after.records.at(-1)!.kind, "turn_end");
    assert.ok(readFileSync(h.path).at(-1) === 0x0a);
  }));

test("writing half a line by hand is the same torn tail the reader and writer handle", () =>
  withTmp((dir) => {
    const path = join(dir, "only-torn.jsonl");
    writeFileSync(path, '{"v":1,"ts":');
    assert.equal(readRecords(path).records.length, 0);
    const w = JsonlWriter.open(path);
    w.append(msg(1));
    w.close();
    assert.equal(readRecords(path).records.length, 1);
  }));
