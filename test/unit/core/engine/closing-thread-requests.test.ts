/**
 * A request about a thread the window closed a moment ago (durability "soon": JsonlWriter.closeSoon, its lock still
 * going off the thread): the engine waits for that close instead of refusing with "still being closed by this
 * process". The request comes in the loop turn after the thread's fd closed, while the lock's release is under way:
 * the moment a synchronous open or delete of the store is refused (asserted first, so the test hits it).
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import type { EngineRequest } from "../../../../src/core/engine/requests";
import { liveWriter } from "../../../../src/core/store/file-lock";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { startInput, withTmp } from "../store/helpers";

/** Resolves in the loop turn after the next fs.close ends: the closed thread's fd, its lock's release then started. */
function afterNextClose(): Promise<void> {
  const saved = fs.close;
  return new Promise((resolve) => {
    fs.close = ((fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => {
      fs.close = saved;
      saved(fd, (err) => {
        cb(err);
        setImmediate(resolve);
      });
    }) as typeof fs.close;
  });
}

/** The window's store and engine; a thread of it opened off the thread, written, then closed: in its lock's release. */
async function justClosed(dir: string) {
  const store = new ThreadStore(join(dir, "home"), { durability: "soon" });
  const engine = localEngine({ store });
  const h = await store.createAsync(startInput(dir, { title: "Demo" }));
  h.append({ kind: "user_message", messageId: "u1", text: "question" });
  await h.writer.durable(); // nothing left to fsync: the close goes straight to the fd's close
  const released = afterNextClose();
  h.close();
  await released;
  assert.throws(() => store.delete(h.threadId), /is still being closed by this process/, "the moment of the race");
  return { store, engine, threadId: h.threadId, path: h.path };
}

const requests: [string, (threadId: string) => EngineRequest][] = [
  ["threads.delete", (threadId) => ({ op: "threads.delete", threadId })],
  ["threads.rename", (threadId) => ({ op: "threads.rename", threadId, title: "Renamed" })],
  ["threads.archive", (threadId) => ({ op: "threads.archive", archived: true, ids: [threadId] })],
];

for (const [op, request] of requests)
  test(`${op} of a thread whose close is still under way waits for that close, then does it`, () =>
    withTmp(async (dir) => {
      const { store, engine, threadId, path } = await justClosed(dir);
      const reply = await engine.call(request(threadId));
      assert.equal(liveWriter(path), undefined, "unlocked");
      if (op === "threads.delete") return assert.equal(fs.existsSync(store.trashPathFor(threadId)), true);
      if (op === "threads.rename") return assert.equal(store.readMetadata(threadId).title, "Renamed");
      assert.deepEqual((reply as { done: string[] }).done, [threadId]);
      assert.equal(store.readMetadata(threadId).archived, true);
    }));

test("the window's own delete and archive: awaiting whenClosed first, the synchronous call finds the close complete", () =>
  withTmp(async (dir) => {
    const { store, threadId } = await justClosed(dir);
    await store.whenClosed(threadId);
    store.patchMetadata(threadId, { archived: true });
    store.delete(threadId);
    assert.equal(fs.existsSync(store.trashPathFor(threadId)), true);
  }));
