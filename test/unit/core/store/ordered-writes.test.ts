/**
 * The window's thread writer (durability "soon": JsonlWriter `pool`, ordered-writes.ts): its records go out in call
 * order on the thread pool, never with a synchronous call; a reader meanwhile sees whole records in order, never a
 * hole; a failed write surfaces and nothing lands past it; the queue is bounded; a synchronous close or exit writes
 * what is queued exactly once; a crash mid-burst leaves whole records in order. Real files, real processes.
 */
import assert from "node:assert/strict";
import fs, { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { Logger } from "../../../../src/core/log";
import { liveWriter } from "../../../../src/core/store/file-lock";
import { readRecords, readRecordsAsync } from "../../../../src/core/store/jsonl-reader";
import { JsonlWriter } from "../../../../src/core/store/jsonl-writer";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { countFsCalls } from "../fs-calls";
import { exitOf, spawnChild, startInput, waitForLine, warnings, withTmp } from "./helpers";

const message = (i: number, size = 10) => ({
  kind: "agent_message" as const,
  messageId: `m${i}`,
  text: "t".repeat(size),
});
const idsOf = (path: string) =>
  readRecords(path)
    .records.map((r) => ("messageId" in r ? r.messageId : r.kind))
    .filter((id) => id !== "thread_start");

async function soonThread(dir: string, logger?: Logger) {
  const store = new ThreadStore(join(dir, "home"), { durability: "soon", ...(logger ? { logger } : {}) });
  const h = await store.createAsync(startInput(dir));
  await h.flushed();
  return { store, h };
}

test("the window's appends: no synchronous call, call order kept, listeners told in file order, readers never see a hole", () =>
  withTmp(async (dir) => {
    const { store, h } = await soonThread(dir);
    const ranges: [number, number][] = [];
    const told: string[] = [];
    h.onAppend((records, start, end) => {
      ranges.push([start, end]);
      for (const r of records) told.push("messageId" in r ? r.messageId : r.kind);
    });
    const expected: string[] = [];
    const seen: string[][] = [];
    const { sync } = await countFsCalls(async () => {
      const patches: Promise<unknown>[] = [];
      for (let i = 0; i < 300; i++) {
        // every way a session writes: single records, batches, patches now and patches on the pool
        if (i % 50 === 7) {
          patches.push(h.patchAsync({ title: `t${i}` }));
          expected.push("meta_patch");
        } else if (i % 30 === 3) {
          h.appendMany([message(i), message(i + 1000)]);
          expected.push(`m${i}`, `m${i + 1000}`);
        } else if (i % 40 === 5) {
          h.patch({ status: "live" });
          expected.push("meta_patch");
        } else {
          h.append(message(i, (i * 4099) % 20_000));
          expected.push(`m${i}`);
        }
        // a reader (the panel's tail, a follower, the host's feed) reads while records are in flight
        if (i % 10 === 0) {
          const read = await readRecordsAsync(h.path);
          assert.deepEqual(
            read.warnings.filter((w) => !/torn last line/.test(w.message)),
            [],
            "no bad line",
          );
          seen.push(read.records.map((r) => ("messageId" in r ? r.messageId : r.kind)).slice(1));
        }
      }
      await Promise.all(patches);
      await h.flushed();
    }, []);
    assert.deepEqual(sync, [], "no synchronous file call on the caller's thread");
    for (const s of seen) assert.deepEqual(s, expected.slice(0, s.length), "each read is a prefix, in call order");
    assert.deepEqual(told, expected, "the listeners heard every record, in file order");
    for (let i = 1; i < ranges.length; i++) assert.equal(ranges[i]![0], ranges[i - 1]![1], "ranges touch");
    assert.equal(ranges.at(-1)![1], h.size, "the last range ends at the file's size");
    h.close();
    await store.whenClosed(h.threadId);
    assert.deepEqual(idsOf(h.path), expected, "the file holds every record once, in call order");
    assert.equal(readRecords(h.path).warnings.length, 0);
  }));

test("a queued write that fails surfaces (warned, flushed rejects, the next append throws) and nothing lands past it", () =>
  withTmp(async (dir) => {
    const { logger, warned } = warnings();
    const { store, h } = await soonThread(dir, logger);
    h.append(message(1));
    await h.flushed();
    const told: string[] = [];
    h.onAppend((records) => told.push(...records.map((r) => ("messageId" in r ? r.messageId : r.kind))));
    const fsAny = fs as unknown as Record<string, unknown>;
    const write = fsAny.write as (...a: unknown[]) => void;
    let failed = 0;
    fsAny.write = (...a: unknown[]) => {
      const cb = a.at(-1) as (err: Error | null, n?: number) => void;
      if (failed++ === 0)
        return setImmediate(() => cb(Object.assign(new Error("ENOSPC: no space left"), { code: "ENOSPC" })));
      return write(...a);
    };
    try {
      h.append(message(2));
      h.append(message(3));
      await assert.rejects(h.flushed(), { code: "ENOSPC" });
      assert.throws(
        () => h.append(message(4)),
        { code: "ENOSPC" },
        "a later append is refused: it would sit past a hole",
      );
      await assert.rejects(h.patchAsync({ title: "x" }), { code: "ENOSPC" });
    } finally {
      fsAny.write = write;
    }
    assert.ok(
      warned.some((w) => /writing a record failed \(ENOSPC\)/.test(w)),
      warned.join("\n"),
    );
    assert.deepEqual(told, [], "no listener heard of a record that never landed");
    h.close();
    await store.whenClosed(h.threadId);
    assert.equal(liveWriter(h.path), undefined, "closed and unlocked all the same");
    assert.deepEqual(idsOf(h.path), ["m1"], "only what landed before the failure");
    assert.equal(readRecords(h.path).tornBytes, 0);
  }));

test("the queue is bounded: past its bytes an append writes on the caller's thread, in order", () =>
  withTmp(async (dir) => {
    const path = join(dir, "t.jsonl");
    const w = await JsonlWriter.openAsync(path, { pool: true, maxQueued: 4096 });
    const big = (i: number) => ({ kind: "agent_message" as const, messageId: `m${i}`, text: "b".repeat(1500) });
    const { sync } = await countFsCalls(async () => {
      for (let i = 0; i < 20; i++) w.append(big(i));
    }, []);
    assert.ok(sync.includes("writeSync"), "over the bound: written on the caller's thread");
    assert.ok(w.size - w.written <= 4096 + 1600, `at most the bound queued (${w.size - w.written})`);
    await w.flushed();
    w.close();
    assert.deepEqual(
      idsOf(path),
      Array.from({ length: 20 }, (_, i) => `m${i}`),
    );
  }));

test("a synchronous close or exit with writes in flight writes each queued record once, durable and unlocked", () =>
  withTmp(async (dir) => {
    const { store, h } = await soonThread(dir);
    for (let i = 0; i < 50; i++) h.append(message(i, 5000));
    h.close(); // off the thread ("soon")...
    store.closeAll(); // ...finished on the spot (a synchronous exit) while the pool's writes are in flight
    assert.equal(liveWriter(h.path), undefined, "unlocked on return");
    assert.deepEqual(
      idsOf(h.path),
      Array.from({ length: 50 }, (_, i) => `m${i}`),
      "every record on return, once",
    );
    const w = await JsonlWriter.openAsync(join(dir, "direct.jsonl"), { pool: true });
    for (let i = 0; i < 50; i++) w.append(message(i, 5000));
    w.close(); // a synchronous close of a queued writer
    await new Promise((r) => setTimeout(r, 50)); // the pool's writes in flight end on the same bytes
    assert.deepEqual(
      idsOf(join(dir, "direct.jsonl")),
      Array.from({ length: 50 }, (_, i) => `m${i}`),
    );
    await store.whenAllClosed();
    assert.deepEqual(idsOf(h.path).length, 50, "the late pool writes changed nothing");
  }));

test("kill -9 mid-burst of queued writes: whole records in call order, a torn tail at most, repaired on reopen", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir));
    h.close();
    const child = spawnChild(["queued", store.home, h.threadId]);
    try {
      await waitForLine(child, /^locked$/);
      await new Promise((r) => setTimeout(r, 400)); // a few MB in flight
    } finally {
      child.kill("SIGKILL");
      await exitOf(child);
    }
    const before = readRecords(h.path);
    assert.deepEqual(
      before.warnings.filter((w) => !/torn last line/.test(w.message)),
      [],
      "no bad line (no hole)",
    );
    const ids = before.records.slice(1).map((r) => ("messageId" in r ? r.messageId : r.kind));
    assert.ok(ids.length > 10, `records written before the kill survive (${ids.length})`);
    assert.deepEqual(
      ids,
      ids.map((_, i) => `m${i}`),
      "in call order, none missing",
    );
    const soon = new ThreadStore(store.home, { durability: "soon" });
    const reopened = await soon.openAsync(h.threadId); // stale lock taken over, torn tail (if any) cut
    reopened.append({ kind: "turn_end", stopReason: "cancelled" });
    reopened.close();
    await soon.whenClosed(h.threadId);
    const after = readRecords(h.path);
    assert.equal(after.tornBytes, 0);
    assert.equal(after.records.at(-1)!.kind, "turn_end");
    assert.equal(readFileSync(h.path).at(-1), 0x0a);
  }));
