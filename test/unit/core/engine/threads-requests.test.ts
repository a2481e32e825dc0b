// #35 item 7, the thread-reading requests (threads.list/read/meta/rename): a thread is named by its id or a unique
// prefix, which the engine resolves in its own data home. Hostile names (a `../` walk, a path, a file name) are a
// usage error, and nothing is read or written outside the data home (nor inside it).
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import { AcpThreadsError } from "../../../../src/core/errors";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { withTmp } from "../store/helpers";
import { threadWith } from "./helpers";

const usage = (err: unknown) =>
  err instanceof AcpThreadsError && err.code === "usage" && /is not a thread id/.test(err.message);

test("threads.read/meta/rename/archive refuse a path or a ../ walk as a thread id: usage error, nothing read or written", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const engine = localEngine({ home: store.home });
    const id = threadWith(store, dir, 1);
    // a thread file outside the data home, that a walk out of its threads folder would reach
    const outside = join(dir, "outside");
    mkdirSync(outside);
    const victim = join(outside, `${id}.jsonl`);
    copyFileSync(store.pathFor(id), victim);
    const victimBefore = readFileSync(victim, "utf8");
    const homeBefore = readFileSync(store.pathFor(id), "utf8");
    const hostile = [
      `../outside/${id}`,
      `../../outside/${id}`,
      victim,
      `${id}.jsonl`,
      `${id}/../${id}`,
      "..",
      `./${id}`,
    ];
    for (const threadId of hostile) {
      await assert.rejects(engine.call({ op: "threads.read", threadId }), usage, `read ${threadId}`);
      await assert.rejects(engine.call({ op: "threads.meta", threadId }), usage, `meta ${threadId}`);
      await assert.rejects(
        engine.call({ op: "threads.rename", threadId, title: "pwned" }),
        usage,
        `rename ${threadId}`,
      );
    }
    assert.equal(readFileSync(victim, "utf8"), victimBefore, "the file outside the data home is untouched");
    assert.deepEqual(readdirSync(outside), [`${id}.jsonl`], "nothing new outside the data home");
    assert.equal(readFileSync(store.pathFor(id), "utf8"), homeBefore, "nor is the thread renamed");
    assert.deepEqual(readdirSync(store.threadsDir), [`${id}.jsonl`]);
  }));

test("threads.read resolves a prefix, reads from a cursor; a missing thread is not_found; rename writes the title", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const engine = localEngine({ home: store.home });
    const id = threadWith(store, dir, 2);
    const all = await engine.call({ op: "threads.read", threadId: id });
    assert.equal(all.records.length, all.next);
    assert.deepEqual(all.records, store.read(id).records, "the records as the store reads them");
    const tail = await engine.call({ op: "threads.read", threadId: id.slice(0, 8), from: all.next - 1 });
    assert.deepEqual(tail.records, all.records.slice(-1), "only what came after the cursor");
    const past = await engine.call({ op: "threads.read", threadId: id, from: all.next + 5 });
    assert.deepEqual([past.records, past.next], [[], all.next], "a cursor past the end: nothing new");
    const missing = "0".repeat(8) + id.slice(8);
    await assert.rejects(engine.call({ op: "threads.read", threadId: missing }), { code: "not_found" });
    await assert.rejects(engine.call({ op: "threads.meta", threadId: "abcd" }), { code: "not_found" });
    const size = statSync(store.pathFor(id)).size;
    assert.deepEqual(await engine.call({ op: "threads.rename", threadId: id, title: " New name " }), {
      threadId: id,
      title: "New name",
    });
    assert.ok(statSync(store.pathFor(id)).size > size, "appended to the thread's own file");
    assert.equal((await engine.call({ op: "threads.meta", threadId: id })).title, "New name");
    assert.deepEqual(await engine.call({ op: "threads.rename", threadId: id, title: "  " }), {
      threadId: id,
      title: null,
    });
  }));
