import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { isThreadId, threadIdTime } from "../../../../src/core/model/thread-id";
import { newThreadId } from "../../../../src/core/store/thread-id";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { exitOf, spawnChild, startInput, waitForLine, withTmp } from "./helpers";

test("thread ids are time-ordered strings that sort by creation time", () => {
  const ids = [newThreadId(1_700_000_000_000), newThreadId(1_700_000_000_000), newThreadId(1_700_000_000_001)];
  for (const id of ids) assert.ok(isThreadId(id), id);
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(threadIdTime(ids[2]!).getTime(), 1_700_000_000_001);
  assert.equal(isThreadId("../etc/passwd"), false);
});

test("a thread is created, appended to, patched and read back with folded metadata", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir, { title: "start title" }));
    h.append({ kind: "user_message", messageId: "u1", text: "hi" });
    h.close();
    store.append(h.threadId, [{ kind: "agent_message", messageId: "a1", text: "hello" }]);
    store.patchMetadata(h.threadId, { status: "done", tags: ["x"] });
    const read = store.read(h.threadId);
    assert.deepEqual(
      read.records.map((r) => r.kind),
      ["thread_start", "user_message", "agent_message", "meta_patch"],
    );
    assert.equal(read.metadata.title, "start title");
    assert.equal(read.metadata.status, "done");
    assert.deepEqual(read.metadata.tags, ["x"]);
    assert.ok(!JSON.stringify(read.records[0]).includes("env"), "thread_start has no env");
  }));

test("existsAsync answers as exists, off the caller's thread, and never for a path posing as an id", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir));
    h.close();
    assert.equal(await store.existsAsync(h.threadId), true);
    assert.equal(await store.existsAsync(newThreadId()), false);
    assert.equal(await store.existsAsync("../../etc/passwd"), false);
  }));

test("rename, delete to the trash and restore keep the whole history", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir));
    h.append({ kind: "user_message", messageId: "u1", text: "keep me" });
    h.close();
    store.rename(h.threadId, "  New name ");
    assert.equal(store.readMetadata(h.threadId).title, "New name");
    const bytes = readFileSync(h.path);
    const trashed = store.delete(h.threadId);
    assert.ok(!existsSync(h.path) && existsSync(trashed));
    assert.deepEqual(store.list(), []);
    assert.throws(() => store.read(h.threadId), /no thread/);
    assert.equal(store.resolveId(h.threadId.slice(0, 8), { trash: true }), h.threadId);
    store.restore(h.threadId);
    assert.deepEqual(readFileSync(h.path), bytes);
    assert.equal(store.list()[0]!.title, "New name");
    assert.throws(() => store.restore(h.threadId), /not in the trash/);
  }));

test("ids resolve from a unique prefix and ambiguous or unknown prefixes are clear errors", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const a = store.create(startInput(dir, { threadId: "01900000-0000-7000-8000-000000000001" }));
    const b = store.create(startInput(dir, { threadId: "01900000-0000-7000-8000-000000000002" }));
    a.close();
    b.close();
    assert.equal(store.resolveId("01900000-0000-7000-8000-000000000002"), b.threadId);
    assert.throws(() => store.resolveId("01900000"), /ambiguous \(2 threads match\)/);
    assert.throws(() => store.resolveId("ffff"), /no thread 'ffff'/);
    assert.throws(() => store.pathFor("../../x"), /not a thread id/);
  }));

test("a thread being written by a live process cannot be deleted", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir));
    assert.throws(() => store.delete(h.threadId), /while process \d+ is writing it/);
    h.close();
    store.delete(h.threadId);
  }));

test("a live thread whose writer process was killed is marked interrupted on the next start", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir));
    const idle = store.create(startInput(dir));
    h.close();
    idle.close();
    const child = spawnChild(["live", store.home, h.threadId]);
    await waitForLine(child, /^live$/);
    assert.deepEqual(store.markInterrupted(), [], "a live writer is left alone");
    child.kill("SIGKILL");
    await exitOf(child);
    assert.deepEqual(store.markInterrupted(), [h.threadId]);
    const meta = store.readMetadata(h.threadId);
    assert.equal(meta.status, "interrupted");
    assert.match(meta.reason ?? "", new RegExp(`writer process ${child.pid} exited`));
    assert.equal(store.readMetadata(idle.threadId).status, "idle");
    assert.deepEqual(store.markInterrupted(), [], "marking is done once");
  }));

test("exporting a thread copies its complete lines to a 0600 file", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir));
    h.close();
    const out = join(dir, "out", "t.jsonl");
    const { bytes } = store.exportJsonl(h.threadId, out);
    assert.equal(readFileSync(out).length, bytes);
    assert.deepEqual(readFileSync(out), readFileSync(h.path));
  }));
