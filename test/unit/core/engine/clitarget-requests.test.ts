// #35 item 7, the CLI's thread targets: threads.resolve (a THREAD argument's whole id, as the store's lookup gives
// it, with the same errors), threads.workspace (a folder's workspace: its repository's top, else the folder), and
// threads.delete/restore (only the thread named moves, in the data home).
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import { AcpThreadsError } from "../../../../src/core/errors";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { startInput, withTmp } from "../store/helpers";
import { repoAt } from "../worktree/helpers";
import { threadWith } from "./helpers";

/** The error a call ends in, as code and message (the store's own lookup is the reference). */
async function failure(run: () => unknown): Promise<[string, string]> {
  try {
    await run();
  } catch (err) {
    assert.ok(err instanceof AcpThreadsError, String(err));
    return [err.code, err.message];
  }
  assert.fail("it did not fail");
}

/** A data home in `dir` and the engine over it. */
function homeIn(dir: string) {
  const store = new ThreadStore(join(dir, "home"));
  return { store, engine: localEngine({ home: store.home }) };
}

test("threads.resolve gives the whole id a prefix names, with the store's errors; a path names no thread", () =>
  withTmp(async (dir) => {
    const { store, engine } = homeIn(dir);
    const a = threadWith(store, dir, 1);
    const b = threadWith(store, dir, 1);
    const resolve = (threadId: string, trash?: boolean) =>
      engine.call({ op: "threads.resolve", threadId, ...(trash ? { trash } : {}) });
    assert.deepEqual(await resolve(a), { threadId: a });
    assert.deepEqual(await resolve(b.slice(0, 30)), { threadId: b });
    // ambiguous (usage), too short or missing (not_found): the very errors of the store's lookup
    for (const given of [a.slice(0, 4), a.slice(0, 3), "0194a2b3-0000-7000-8000-000000000000"])
      assert.deepEqual(await failure(() => resolve(given)), await failure(() => store.resolveId(given)), given);
    // a path, a ../ walk, a file name: no thread of that name (what the lookup said), nothing looked up
    const before = readdirSync(store.threadsDir).sort();
    for (const given of [`../${a}`, join(dir, "home", "threads", a), `${a}.jsonl`, "..", "zzzz"])
      assert.deepEqual(await failure(() => resolve(given)), ["not_found", `no thread '${given}'`], given);
    assert.deepEqual(readdirSync(store.threadsDir).sort(), before);
    // the trash: a deleted thread is found there only
    store.delete(b);
    assert.deepEqual(await resolve(b.slice(0, 13), true), { threadId: b });
    assert.deepEqual(await failure(() => resolve(b)), ["not_found", `no thread '${b}'`]);
    assert.deepEqual(await failure(() => resolve("../x", true)), ["not_found", "no thread '../x' in the trash"]);
  }));

test("threads.workspace is a folder's repository top (from a subfolder too), else the folder itself", () =>
  withTmp(async (dir) => {
    const engine = localEngine({ home: join(dir, "home") });
    const repo = repoAt(join(dir, "repo"));
    const sub = join(repo, "src", "deep");
    mkdirSync(sub, { recursive: true });
    const plain = join(dir, "plain");
    mkdirSync(plain);
    const top = realpathSync(repo);
    assert.deepEqual(await engine.call({ op: "threads.workspace", cwd: sub }), { workspace: top });
    assert.deepEqual(await engine.call({ op: "threads.workspace", cwd: repo }), { workspace: top });
    assert.deepEqual(await engine.call({ op: "threads.workspace", cwd: plain }), { workspace: plain });
  }));

test("threads.delete/restore move only the thread named in the data home; a path or a held thread is refused", () =>
  withTmp(async (dir) => {
    const { store, engine } = homeIn(dir);
    const id = threadWith(store, dir, 1);
    const outside = join(dir, "outside"); // a thread-shaped file there, that a walk out of threads/ would reach
    mkdirSync(outside);
    copyFileSync(store.pathFor(id), join(outside, `${id}.jsonl`));
    for (const threadId of [`../outside/${id}`, join(outside, id), `${id}.jsonl`, "..", "*"]) {
      for (const op of ["threads.delete", "threads.restore"] as const)
        assert.deepEqual((await failure(() => engine.call({ op, threadId })))[0], "not_found", `${op} ${threadId}`);
    }
    assert.deepEqual(readdirSync(outside), [`${id}.jsonl`], "the file outside is where it was");
    assert.deepEqual(readdirSync(store.threadsDir), [`${id}.jsonl`], "the thread too");
    // a thread another writer holds stays, with the store's refusal
    const held = store.create(startInput(dir));
    try {
      const [code] = await failure(() => engine.call({ op: "threads.delete", threadId: held.threadId }));
      assert.equal(code, "locked");
      assert.ok(existsSync(store.pathFor(held.threadId)), "not moved");
    } finally {
      held.close();
    }
    // to the trash by prefix, and back
    const trashed = await engine.call({ op: "threads.delete", threadId: id.slice(0, 13) });
    assert.deepEqual(trashed, { threadId: id, trash: store.trashPathFor(id) });
    assert.equal(existsSync(store.pathFor(id)), false);
    assert.deepEqual(await engine.call({ op: "threads.restore", threadId: id }), {
      threadId: id,
      path: store.pathFor(id),
    });
    assert.ok(existsSync(store.pathFor(id)), "back in the threads folder");
  }));
