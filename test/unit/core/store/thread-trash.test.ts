/**
 * The window's Delete and Archive of a stored thread (ThreadStore.deleteAsync, patchMetadataAsync): the look, the
 * lock, the move to the trash (with the thread's images) and the open/close of a patch run off the caller's thread.
 * Real files; every `fs.*Sync` is counted (they still run).
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { liveWriter } from "../../../../src/core/store/file-lock";
import { assetsDir } from "../../../../src/core/store/paths";
import { newThreadId } from "../../../../src/core/store/thread-id";
import { countFsCalls } from "../fs-calls";
import { closedSoonThread, withTmp } from "./helpers";

/** The window's store (durability "soon") and a closed thread of it with an attached image. */
async function closedThread(dir: string) {
  const { store, h } = await closedSoonThread(dir);
  const image = join(assetsDir(store.threadsDir, h.threadId), "a.png");
  mkdirSync(join(image, ".."), { recursive: true });
  writeFileSync(image, "png");
  return { store, h, image };
}

test("deleteAsync: the thread and its images go to the trash with no synchronous file call; restore brings both back", () =>
  withTmp(async (dir) => {
    const { store, h, image } = await closedThread(dir);
    const bytes = readFileSync(h.path);
    const told: string[] = [];
    store.onDidChange((id) => told.push(id));
    const { value: trashed, sync } = await countFsCalls(() => store.deleteAsync(h.threadId), []);
    assert.deepEqual(sync, [], "no synchronous file call");
    assert.equal(trashed, store.trashPathFor(h.threadId));
    assert.equal(existsSync(h.path), false);
    assert.deepEqual(readFileSync(trashed), bytes);
    assert.equal(existsSync(image), false, "the image left with it");
    assert.equal(existsSync(join(assetsDir(store.layout.trashDir, h.threadId), "a.png")), true);
    assert.equal(liveWriter(trashed), undefined, "no lock left behind");
    assert.deepEqual(told, [h.threadId]);
    store.restore(h.threadId);
    assert.deepEqual(readFileSync(h.path), bytes);
    assert.equal(readFileSync(image, "utf8"), "png");
    await assert.rejects(store.deleteAsync(newThreadId()), /no thread/);
    await assert.rejects(store.deleteAsync("../../etc/passwd"), /not a thread id/);
  }));

test("deleteAsync refuses a thread being written, and waits for a close under way (a session closed a moment ago)", () =>
  withTmp(async (dir) => {
    const { store, h } = await closedThread(dir);
    const held = await store.openAsync(h.threadId);
    await assert.rejects(store.deleteAsync(h.threadId), /cannot delete a thread while process \d+ is writing it/);
    assert.equal(existsSync(h.path), true, "left where it was");
    held.append({ kind: "agent_message", messageId: "a1", text: "more" });
    held.close(); // its fsync, fd close and unlock go on off the thread: the delete waits for them
    const { sync } = await countFsCalls(() => store.deleteAsync(h.threadId), []);
    assert.deepEqual(sync, []);
    const kinds = readFileSync(store.trashPathFor(h.threadId), "utf8").trim().split("\n");
    assert.equal(kinds.length, 3, "every record went with it");
  }));

test("patchMetadataAsync (Archive) makes no synchronous file call; the thread is unlocked on return", () =>
  withTmp(async (dir) => {
    const { store, h } = await closedThread(dir);
    const { sync } = await countFsCalls(() => store.patchMetadataAsync(h.threadId, { archived: true }), []);
    assert.deepEqual(
      sync,
      [],
      "the lock, the open, the torn-tail check, the record's write and the close off the thread",
    );
    assert.equal(liveWriter(h.path), undefined);
    assert.equal((await store.readExisting(h.threadId)).metadata.archived, true);
    // a thread this process holds is patched through its handle
    const held = await store.openAsync(h.threadId);
    await store.patchMetadataAsync(h.threadId, { archived: false });
    assert.equal(held.closed, false, "still open");
    held.close();
    await store.whenClosed(h.threadId);
    assert.equal((await store.readExisting(h.threadId)).metadata.archived, false);
    await assert.rejects(store.patchMetadataAsync(newThreadId(), { archived: true }), /no thread/);
  }));
