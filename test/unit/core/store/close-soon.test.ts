/**
 * A thread closed by the extension host (durability "soon", JsonlWriter.closeSoon): nothing waits on the caller's
 * thread; the fsync runs on the thread pool, then the fd closes, then the lock goes. A reopen by this process right
 * after (resume after close, Restore) waits for that close instead of failing on the lock; `closeAll` leaves every
 * file durable and unlocked. Real files; fs calls are noted by wrapping node:fs's own functions (they still run).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { Logger } from "../../../../src/core/log";
import { liveWriter, lockPathFor } from "../../../../src/core/store/file-lock";
import { ThreadStore, type ThreadHandle } from "../../../../src/core/store/thread-store";
import { syncFsyncs, watchingFs } from "./fs-calls";
import { startInput, warnings, withTmp } from "./helpers";

/**
 * The calls on the thread file's fd (the first fsync's) up to its close, and the lock's removal: other files come
 * and go meanwhile, and once the thread's fd is closed its number is free for the next file opened (the lock's
 * release, the catalog), whose calls are not the thread's.
 */
const ofThread = (calls: string[]) => {
  const fd = calls.find((c) => c.startsWith("fsync"))?.split(" ")[1];
  let closed = false;
  return calls.filter((c) => {
    if (c === "unlock") return true;
    if (closed || c.split(" ")[1] !== fd) return false;
    closed = c.startsWith("close ");
    return true;
  });
};

const message = (i: number) => ({ kind: "agent_message" as const, messageId: `m${i}`, text: `text ${i}` });
const ids = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map(
      (l) =>
        (JSON.parse(l) as { kind: string; messageId?: string }).messageId ?? (JSON.parse(l) as { kind: string }).kind,
    );

async function openedSoon(dir: string, logger?: Logger) {
  const store = new ThreadStore(join(dir, "home"), { durability: "soon", ...(logger ? { logger } : {}) });
  const h = await store.createAsync(startInput(dir));
  await h.writer.durable(); // the thread_start record's fsync is over
  return { store, h };
}

/** A "soon" thread with one record written, closed with the fs calls noted from the close on. */
const afterClose = (fn: (o: { store: ThreadStore; h: ThreadHandle; calls: string[] }) => Promise<void>) =>
  withTmp((dir) =>
    watchingFs(async (calls) => {
      const { store, h } = await openedSoon(dir);
      h.append(message(1));
      calls.length = 0;
      h.close();
      await fn({ store, h, calls });
    }),
  );

test('close (durability "soon"): no fsync on the caller\'s thread; fsync on the pool, then the fd closes, then the lock goes', () =>
  afterClose(async ({ store, h, calls }) => {
    assert.equal(h.closed, true, "writes are refused at once");
    assert.throws(() => h.append(message(2)), /is closed/);
    assert.deepEqual(syncFsyncs(calls), [], "nothing on the caller's thread");
    await store.whenClosed(h.threadId);
    const order = ofThread(calls).map((c) => c.split(" ")[0]);
    assert.deepEqual(order, ["fsync", "fsynced", "close", "unlock"], calls.join(", "));
    assert.equal(liveWriter(h.path), undefined, "the lock is gone");
    assert.equal(existsSync(lockPathFor(h.path)), false);
    assert.deepEqual(ids(h.path), ["thread_start", "m1"]);
  }));

test("close with an fsync in flight: that fsync ends, one more covers the later writes, then the fd closes", () =>
  withTmp((dir) =>
    watchingFs(async (calls) => {
      const { store, h } = await openedSoon(dir);
      calls.length = 0;
      h.append(message(1));
      await h.flushed(); // (queued for the pool: an fsync asked before it lands waits for it)
      h.writer.syncSoon();
      h.append(message(2));
      h.close();
      await store.whenClosed(h.threadId);
      // the thread's fd is the first fsync's (as ofThread finds it): the first call noted can be another file's
      // (CI rehearsal, stop 58, under load: a call on fd 19 came first, the thread's were on 18)
      const fd = calls.find((c) => c.startsWith("fsync "))!.split(" ")[1]!;
      assert.deepEqual(ofThread(calls), [
        `fsync ${fd}`,
        `fsynced ${fd}`,
        `fsync ${fd}`,
        `fsynced ${fd}`,
        `close ${fd}`,
        "unlock",
      ]);
    }),
  ));

test("close then an immediate openAsync of the same thread (resume after close): it waits for the close, then opens", () =>
  withTmp((dir) =>
    watchingFs(async (calls) => {
      const { store, h } = await openedSoon(dir);
      h.append(message(1));
      h.close();
      const again = await store.openAsync(h.threadId);
      assert.ok(calls.indexOf("unlock") >= 0, "the old lock went before the reopen");
      assert.equal(liveWriter(again.path)?.pid, process.pid, "held again by this process");
      again.append(message(2));
      again.close();
      await store.whenClosed(h.threadId);
      assert.equal(liveWriter(h.path), undefined);
      assert.deepEqual(ids(h.path), ["thread_start", "m1", "m2"]);
    }),
  ));

test("close then a synchronous open, delete or closeAll: the close is finished on the spot, the new lock survives the old close's end", () =>
  afterClose(async ({ store, h, calls }) => {
    store.closeAll();
    assert.ok(syncFsyncs(calls).length > 0, "closeAll made it durable before returning");
    assert.equal(liveWriter(h.path), undefined, "closeAll left it unlocked");
    const sync = store.open(h.threadId); // a synchronous reopen at once (a rename, an archive)
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(liveWriter(h.path)?.pid, process.pid, "the old close's end did not remove the new lock");
    sync.append(message(2));
    sync.close(); // "soon" as well, opened synchronously: closes at once
    assert.equal(liveWriter(h.path), undefined);
    const again = await store.openAsync(h.threadId);
    again.close();
    store.delete(h.threadId); // closing still: finished first, then moved to the trash
    assert.equal(existsSync(h.path), false);
    assert.deepEqual(ids(store.trashPathFor(h.threadId)), ["thread_start", "m1", "m2"]);
    await store.whenClosed(h.threadId);
  }));

test("closeAllAsync (the window's deactivation): every open and closing thread durable, closed and unlocked", () =>
  withTmp((dir) =>
    watchingFs(async (calls) => {
      const { store, h } = await openedSoon(dir);
      const other = await store.createAsync(startInput(dir));
      h.append(message(1));
      other.append(message(2));
      h.close();
      calls.length = 0;
      await store.closeAllAsync();
      assert.equal(other.closed, true);
      assert.deepEqual([liveWriter(h.path), liveWriter(other.path)], [undefined, undefined]);
      assert.deepEqual(syncFsyncs(calls), [], "nothing on the caller's thread");
      assert.deepEqual(ids(other.path), ["thread_start", "m2"]);
    }),
  ));

test("a failed fsync at close is warned of; the fd still closes and the lock still goes", () =>
  withTmp(async (dir) => {
    const { logger, warned } = warnings();
    const { store, h } = await openedSoon(dir, logger);
    h.append(message(1));
    await watchingFs(
      async (calls) => {
        h.close();
        await store.whenClosed(h.threadId);
        assert.deepEqual(
          ofThread(calls).map((c) => c.split(" ")[0]),
          ["fsync", "close", "unlock"],
        );
      },
      { failFsync: true },
    );
    assert.equal(warned.length, 1, warned.join("\n"));
    assert.match(warned[0]!, /fsync failed \(EIO\); its last records may not survive a system crash/);
    assert.equal(liveWriter(h.path), undefined);
    assert.deepEqual(ids(h.path), ["thread_start", "m1"], "what was written is there");
  }));
