/**
 * The durability point of a live session off the caller's thread (JsonlWriter.syncSoon, ThreadStore durability
 * "soon"): records are written at once, fsynced on the thread pool, coalesced, and never on a closed fd. The
 * fs calls are counted by wrapping node:fs's own functions (they still run), on real files.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { liveWriter } from "../../../../src/core/store/file-lock";
import { JsonlWriter } from "../../../../src/core/store/jsonl-writer";
import { ThreadStore, type Durability } from "../../../../src/core/store/thread-store";
import { LiveThread } from "../../../../src/core/thread/live-thread";
import { watchingFs } from "./fs-calls";
import { startInput, withTmp } from "./helpers";

const message = (i: number) => ({ kind: "agent_message" as const, messageId: `m${i}`, text: `text ${i}` });

test("syncSoon: the record is written at once; one fsync in flight, asks while it runs make exactly one more", () =>
  withTmp((dir) =>
    watchingFs(async (calls) => {
      const w = JsonlWriter.open(join(dir, "t.jsonl"));
      calls.length = 0; // taking the lock fsyncs its file
      w.append(message(1));
      w.syncSoon();
      assert.match(readFileSync(w.path, "utf8"), /"m1"/, "written before any fsync ends");
      w.append(message(2));
      w.syncSoon();
      w.append(message(3));
      w.syncSoon();
      assert.equal(calls.filter((c) => c.startsWith("fsync ")).length, 1, "one in flight");
      await w.durable();
      assert.equal(calls.filter((c) => c.startsWith("fsync ")).length, 2, "the asks made while it ran: one more");
      assert.equal(calls.filter((c) => c.startsWith("fsynced ")).length, 2);
      await w.durable(); // nothing new written: no fsync
      w.syncSoon();
      assert.equal(calls.filter((c) => c.startsWith("fsync ")).length, 2);
      assert.equal(calls.filter((c) => c.startsWith("fsyncSync")).length, 0, "the caller's thread never fsynced");
      w.close();
    }),
  ));

test("close() while an fsync is in flight: durable at once, the lock is free, the fd closes only after that fsync", () =>
  withTmp((dir) =>
    watchingFs(async (calls) => {
      const path = join(dir, "t.jsonl");
      const w = JsonlWriter.open(path);
      calls.length = 0; // taking the lock fsyncs its file
      w.append(message(1));
      w.syncSoon();
      w.append(message(2));
      w.close();
      assert.equal(w.closed, true);
      assert.equal(liveWriter(path), undefined, "the lock is released by close()");
      const fsyncs = calls.filter((c) => /^fsync(Sync)? /.test(c)).map((c) => c.split(" ")[0]);
      const fd = calls[0]!.split(" ")[1]!;
      assert.deepEqual(fsyncs, ["fsync", "fsyncSync"], "close fsynced itself after the last write");
      const again = JsonlWriter.open(path); // reopened at once (the same fd number may come back)
      again.append(message(3));
      await w.durable(); // the in-flight fsync's end
      const done = calls.indexOf(`fsynced ${fd}`);
      assert.ok(done >= 0 && calls.indexOf(`close ${fd}`) > done, `closed after its fsync: ${calls.join(", ")}`);
      again.close();
      assert.deepEqual(
        readFileSync(path, "utf8")
          .trim()
          .split("\n")
          .map((l) => (JSON.parse(l) as { messageId: string }).messageId),
        ["m1", "m2", "m3"],
      );
    }),
  ));

/** A live turn through a store of `durability`: the fs calls made on the caller's thread during it. */
async function turn(dir: string, durability: Durability, calls: string[]) {
  const store = new ThreadStore(join(dir, durability), { durability });
  const h = store.create(startInput(dir));
  await h.writer.durable(); // the thread_start record's fsync (on the thread pool with "soon") is over
  const lt = new LiveThread(h, store.readPath(h.path).metadata, { flushMs: 0 });
  calls.length = 0;
  lt.beginTurn("hello");
  lt.record({ type: "text", stream: "output", text: "hi there" });
  lt.endTurn("end_turn");
  const during = [...calls];
  return { store, h, lt, during };
}

test('durability "soon" (the extension host): a turn begins and ends without an fsync on the caller\'s thread', () =>
  withTmp((dir) =>
    watchingFs(async (calls) => {
      const { store, h, lt, during } = await turn(dir, "soon", calls);
      assert.deepEqual(
        during.filter((c) => c.startsWith("fsyncSync")),
        [],
      );
      assert.ok(
        during.some((c) => c.startsWith("fsync ")),
        "handed to the thread pool",
      );
      const meta = store.read(h.threadId).metadata; // written at once: readers see it before it is durable
      assert.deepEqual([meta.status, meta.counters.turns], ["idle", 1]);
      await h.writer.durable();
      lt.close();
      assert.deepEqual(store.read(h.threadId).metadata.counters.turns, 1);
    }),
  ));

test('durability "now" (the default, the CLI): the turn\'s patches are fsynced before the calls return', () =>
  withTmp((dir) =>
    watchingFs(async (calls) => {
      const { lt, during } = await turn(dir, "now", calls);
      assert.ok(during.filter((c) => c.startsWith("fsyncSync")).length >= 2, during.join(", "));
      assert.deepEqual(
        during.filter((c) => c.startsWith("fsync ")),
        [],
      );
      lt.close();
    }),
  ));

test("createAsync (a session's new thread on the host): the lock and the open off the thread; same refusals as create", () =>
  withTmp((dir) =>
    watchingFs(async (calls) => {
      const store = new ThreadStore(join(dir, "home"), { durability: "soon" });
      const h = await store.createAsync(startInput(dir, { title: "async" }));
      assert.deepEqual(
        calls.filter((c) => c.startsWith("fsyncSync")),
        [],
        "no fsync on the caller's thread",
      );
      assert.equal(liveWriter(h.path)?.pid, process.pid, "the writer's lock is held");
      assert.equal(store.handleOf(h.threadId), h);
      h.append(message(1));
      await assert.rejects(store.createAsync(startInput(dir, { threadId: h.threadId })), /already exists/);
      h.close(); // "soon": the fsync, the fd's close and the lock's release go on off the thread (close-soon.test.ts)
      await store.whenClosed(h.threadId);
      assert.equal(liveWriter(h.path), undefined, "close releases the lock");
      const read = store.read(h.threadId);
      assert.deepEqual(
        [read.metadata.title, read.records.map((r) => r.kind)],
        ["async", ["thread_start", "agent_message"]],
      );
      const reopened = store.open(h.threadId); // released at once: the same process opens it again
      reopened.close();
    }),
  ));
