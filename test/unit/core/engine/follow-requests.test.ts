// #35 item 7, threads.follow: a thread another writer holds, followed read-only through the engine. Its records come
// in file order, none lost or doubled, its writer (never the lock's token) at the start and on each change, the reply
// once nobody holds it (after its last records); an abort ends it with no timer left; a thread is named by id only.
// In process and over the thread host's socket. Every wait is on a push or a reply, never on time.
import assert from "node:assert/strict";
import { appendFileSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import type { Engine } from "../../../../src/core/engine/requests";
import { AcpThreadsError } from "../../../../src/core/errors";
import { lockPathFor } from "../../../../src/core/store/file-lock";
import type { ThreadHandle } from "../../../../src/core/store/thread-handle";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { startInput, withTmp } from "../store/helpers";
import { followPushes, threadWith, withSocketEngine } from "./helpers";

const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

/** `n` more records from the writer, numbered from `from`. */
function write(h: ThreadHandle, from: number, n: number): void {
  for (let i = from; i < from + n; i++) h.append({ kind: "user_message", messageId: `u${i}`, text: `line ${i}` });
}

/** A writer appends in rounds while the engine follows; it lets go; everything arrives once, in order. */
async function followsAWriter(engine: Engine, store: ThreadStore, dir: string): Promise<void> {
  const h = store.create(startInput(dir, { title: "followed" })); // a second handle: it holds the thread's lock
  write(h, 0, 2); // before the follow: sent too, from offset 0
  const pushes = followPushes();
  const following = engine.call(
    { op: "threads.follow", threadId: h.threadId, fromOffset: 0 },
    { onProgress: pushes.on },
  );
  let n = 2;
  for (const round of [1, 3, 5, 8]) {
    write(h, n, round);
    n += round;
    await pushes.until(() => pushes.records().length >= n + 1); // and the thread's start (more: doubled)
  }
  h.close();
  const reply = await following;
  const stored = store.read(h.threadId).records;
  assert.deepEqual(pushes.records(), stored, "every record once, in the file's order");
  assert.deepEqual(reply, { free: true, offset: statSync(h.path).size });
  const holders = pushes.holders();
  assert.equal(holders.length, 1, "one writer all along");
  assert.deepEqual(Object.keys(holders[0]!).sort(), ["host", "label", "pid", "since"], "never the lock's token");
  assert.equal(holders[0]!.pid, process.pid);
  assert.equal(pushes.list[0]!.t, "records", "the records already there first, then the writer");
  const offsets = pushes.list.flatMap((p) => (p.t === "records" ? [p.offset] : []));
  assert.deepEqual(
    offsets,
    [...offsets].sort((a, b) => a - b),
    "offsets only grow",
  );
}

test("threads.follow pushes a writer's records in order, nothing lost or doubled, and replies when it lets go", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    await followsAWriter(localEngine({ home: store.home }), store, dir);
  }));

test("threads.follow pushes each new writer (never its token) and replies once the lock is gone", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const id = threadWith(store, dir, 1);
    const lock = lockPathFor(store.pathFor(id));
    // locks of other machines (never stale here): the second replaces the first in one rename, so the thread is
    // never free in between
    const holdAs = (host: string, token: string) => {
      const tmp = `${lock}.${token}`;
      writeFileSync(
        tmp,
        JSON.stringify({ pid: 4242, host, label: "acp-threads run", since: "2026-01-01T00:00:00Z", token }),
      );
      renameSync(tmp, lock);
    };
    holdAs("builder-a", "secret-a");
    const pushes = followPushes();
    const engine = localEngine({ home: store.home });
    const following = engine.call({ op: "threads.follow", threadId: id, pollMs: 100 }, { onProgress: pushes.on });
    await pushes.until(() => pushes.holders().length === 1);
    holdAs("builder-b", "secret-b");
    await pushes.until(() => pushes.holders().length === 2);
    unlinkSync(lock);
    assert.deepEqual(await following, { free: true, offset: statSync(store.pathFor(id)).size });
    assert.deepEqual(
      pushes.holders().map((h) => h.host),
      ["builder-a", "builder-b"],
    );
    assert.doesNotMatch(JSON.stringify(pushes.list), /secret/, "no token pushed");
    assert.deepEqual(pushes.records(), [], "nothing appended after the start");
  }));

test("threads.read's offset is where threads.follow goes on: what came after the read, once each", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const engine = localEngine({ home: store.home });
    const h = store.create(startInput(dir, { title: "read, then followed" })); // holds the lock: another writer
    write(h, 0, 3);
    const read = await engine.call({ op: "threads.read", threadId: h.threadId });
    assert.equal(read.offset, statSync(h.path).size, "a clean file: the offset is its end");
    write(h, 3, 2); // between the read and the follow: what a follow from the file's end would lose
    const pushes = followPushes();
    const following = engine.call(
      { op: "threads.follow", threadId: h.threadId, fromOffset: read.offset, pollMs: 100 },
      { onProgress: pushes.on },
    );
    await pushes.until(() => pushes.records().length >= 2);
    write(h, 5, 1);
    await pushes.until(() => pushes.records().length >= 3);
    h.close();
    await following;
    const all = store.read(h.threadId).records;
    assert.deepEqual([...read.records, ...pushes.records()], all, "the read and the follow: every record once");
  }));

test("threads.read's offset leaves a torn tail out: the follow from it gets that record once it is whole", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const engine = localEngine({ home: store.home });
    const id = threadWith(store, dir, 1);
    const path = store.pathFor(id);
    const whole = statSync(path).size;
    // a copy of its last record as another message
    const last = JSON.parse(readFileSync(path, "utf8").trimEnd().split("\n").pop()!) as Record<string, unknown>;
    const line = JSON.stringify({ ...last, kind: "user_message", messageId: "late", text: "torn, then whole" });
    appendFileSync(path, line.slice(0, 20)); // a writer killed mid-line, or still writing it
    const read = await engine.call({ op: "threads.read", threadId: id });
    assert.equal(read.offset, whole, "the offset stops before the torn tail");
    assert.equal(read.next, 3, "the thread's start and its two messages");
    appendFileSync(path, `${line.slice(20)}\n`);
    const pushes = followPushes();
    const reply = await engine.call(
      { op: "threads.follow", threadId: id, fromOffset: read.offset },
      { onProgress: pushes.on },
    );
    assert.deepEqual(
      pushes.records().map((r) => (r.kind === "user_message" ? r.messageId : r.kind)),
      ["late"],
    );
    assert.deepEqual(reply, { free: true, offset: statSync(path).size });
  }));

test("an aborted threads.follow replies free: false at once and leaves no timer behind", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir));
    try {
      const engine = localEngine({ home: store.home });
      const before = timers();
      const stop = new AbortController();
      const pushes = followPushes();
      const following = engine.call(
        { op: "threads.follow", threadId: h.threadId, pollMs: 10_000 },
        { signal: stop.signal, onProgress: pushes.on },
      );
      await pushes.until(() => pushes.holders().length === 1); // now it waits for its next poll
      assert.equal(timers(), before + 1, "the follow's one timer");
      stop.abort();
      assert.deepEqual(await following, { free: false, offset: statSync(h.path).size });
      assert.equal(timers(), before, "no timer left behind");
      // aborted before it starts: not started
      await assert.rejects(engine.call({ op: "threads.follow", threadId: h.threadId }, { signal: stop.signal }), {
        code: "interrupted",
      });
    } finally {
      h.close();
    }
  }));

test("threads.follow names a thread by id only: a path or ../ is refused, a missing thread is not found", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const id = threadWith(store, dir, 1);
    const engine = localEngine({ home: store.home });
    for (const given of [`../${id}`, store.pathFor(id), `${id}.jsonl`, `threads/${id}`]) {
      const pushes = followPushes();
      await assert.rejects(
        engine.call({ op: "threads.follow", threadId: given }, { onProgress: pushes.on }),
        (err: unknown) =>
          err instanceof AcpThreadsError && err.code === "usage" && /is not a thread id/.test(err.message),
        given,
      );
      assert.deepEqual(pushes.list, [], "nothing read");
    }
    await assert.rejects(engine.call({ op: "threads.follow", threadId: "0194a2b3-0000-7000-8000-000000000000" }), {
      code: "not_found",
    });
    // a prefix is resolved as the other thread requests resolve it
    assert.equal((await engine.call({ op: "threads.follow", threadId: id.slice(0, 13) })).free, true);
  }));

test("threads.follow over the thread host's socket: the same pushes and reply; a cancel ends it", () =>
  withCliHost("acp-follow-", async ({ dir, home }) => {
    const store = new ThreadStore(home);
    await withSocketEngine(home, async (engine) => {
      await followsAWriter(engine, store, dir);
      const h = store.create(startInput(dir));
      try {
        const stop = new AbortController();
        const pushes = followPushes();
        const following = engine.call(
          { op: "threads.follow", threadId: h.threadId, pollMs: 10_000 },
          { signal: stop.signal, onProgress: pushes.on },
        );
        await pushes.until(() => pushes.holders().length === 1);
        stop.abort();
        assert.deepEqual(await following, { free: false, offset: statSync(h.path).size });
      } finally {
        h.close();
      }
    });
  }));
