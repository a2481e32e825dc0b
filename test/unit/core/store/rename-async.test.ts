/**
 * The window's Rename (the engine's `threads.rename` → ThreadStore.renameAsync → patchMetadataAsync): the lock, the
 * open, the record's write and the close all run off the caller's thread. Real files; every `fs.*Sync` is counted.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import { liveWriter } from "../../../../src/core/store/file-lock";
import { newThreadId } from "../../../../src/core/store/thread-id";
import { countFsCalls } from "../fs-calls";
import { closedSoonThread, withTmp } from "./helpers";

/** The window's store (durability "soon") and a closed thread of it. */
async function closedThread(dir: string) {
  const { store, h } = await closedSoonThread(dir);
  return { store, threadId: h.threadId, path: h.path };
}

test("threads.rename of a stored thread makes no synchronous file call; unlocked on return; blank clears", () =>
  withTmp(async (dir) => {
    const { store, threadId, path } = await closedThread(dir);
    const engine = localEngine({ store });
    const { value, sync } = await countFsCalls(
      () => engine.call({ op: "threads.rename", threadId, title: "  My name " }),
      [],
    );
    assert.deepEqual(sync, [], "the lock, the open, the record's write and the close off the thread");
    assert.deepEqual(value, { threadId, title: "My name" });
    assert.equal(liveWriter(path), undefined, "unlocked");
    const meta = (await store.readExisting(threadId)).metadata;
    assert.equal(meta.title, "My name");
    assert.equal(meta.titleByUser, true);
    await engine.call({ op: "threads.rename", threadId, title: "  " });
    assert.equal((await store.readExisting(threadId)).metadata.titleByUser, false, "a blank title clears it");
    const lines = readFileSync(path, "utf8").split("\n");
    assert.equal(lines.pop(), "", "every record is a whole line");
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { kind: string }).kind),
      ["thread_start", "user_message", "meta_patch", "meta_patch"],
    );
  }));

test("renameAsync of a thread held here goes through its handle (its patch listeners are told), in order with its appends", () =>
  withTmp(async (dir) => {
    const { store, threadId, path } = await closedThread(dir);
    const held = await store.openAsync(threadId);
    const patches: unknown[] = [];
    held.onPatch((p) => patches.push(p));
    await store.renameAsync(threadId, "while held");
    assert.deepEqual(patches, [{ title: "while held", titleByUser: true }]);
    assert.equal(held.closed, false, "still open");
    // an async patch's range is taken at the call: an append made while it is written lands after it
    const ranges: [number, number][] = [];
    held.onAppend((_r, start, end) => ranges.push([start, end]));
    const patching = held.patchAsync({ archived: true });
    held.append({ kind: "user_message", messageId: "u2", text: "after the patch" });
    await patching;
    held.close();
    await store.whenClosed(threadId);
    const kinds = readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { kind: string }).kind);
    assert.deepEqual(kinds.slice(-3), ["meta_patch", "meta_patch", "user_message"]);
    assert.equal(ranges.length, 2);
    const [patch, append] = ranges; // each told once written (the window's writer queues both), in file order
    assert.equal(patch![1], append![0], "the patch's range ends where the append's starts");
    const read = await store.readExisting(threadId);
    assert.equal(read.metadata.archived, true);
    assert.equal(read.metadata.title, "while held");
  }));

test("threads.rename of a missing thread is refused with the lookup's words, nothing written", () =>
  withTmp(async (dir) => {
    const { store } = await closedThread(dir);
    const engine = localEngine({ store });
    const missing = newThreadId();
    await assert.rejects(engine.call({ op: "threads.rename", threadId: missing, title: "x" }), {
      code: "not_found",
      message: `no thread '${missing}'`,
    });
  }));
