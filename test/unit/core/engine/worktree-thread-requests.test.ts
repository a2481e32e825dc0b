// #35 item 7, `worktree.thread`: the thread a `worktrees` command names is resolved by the engine in its own data
// home (a whole id or a unique prefix), with the worktree its record keeps and the pid of a live writer other than
// the engine. Hostile: a path or `../` in place of the id is a usage error, nothing read; the same over the socket.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import type { Engine } from "../../../../src/core/engine/requests";
import { AcpThreadsError } from "../../../../src/core/errors";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { threadWith, withSocketEngine, worktreeThread } from "./helpers";

const refused = (code: string, why: RegExp) => (err: unknown) =>
  err instanceof AcpThreadsError && err.code === code && why.test(err.message);

async function namesTheThread(engine: Engine, store: ThreadStore, dir: string): Promise<void> {
  const wt = await worktreeThread(store, dir);
  const whole = { threadId: wt.threadId, worktree: wt.ref, heldBy: null };
  assert.deepEqual(await engine.call({ op: "worktree.thread", thread: wt.threadId }), whole);
  assert.deepEqual(await engine.call({ op: "worktree.thread", thread: wt.threadId.slice(0, -4) }), whole, "a prefix");
  const held = new ThreadStore(store.home).open(wt.threadId);
  try {
    assert.deepEqual(await engine.call({ op: "worktree.thread", thread: wt.threadId }), {
      ...whole,
      heldBy: process.pid,
    });
  } finally {
    held.close();
  }
  const plain = threadWith(store, dir, 1);
  await assert.rejects(
    engine.call({ op: "worktree.thread", thread: plain }),
    refused("not_found", /has no worktree \(only threads started with/),
  );
  await assert.rejects(engine.call({ op: "worktree.thread", thread: "0123abcd" }), refused("not_found", /no thread/));
  for (const hostile of ["../x", wt.ref.path, `${wt.threadId}/..`, ""])
    await assert.rejects(
      engine.call({ op: "worktree.thread", thread: hostile }),
      refused("usage", /is not a thread id/),
      hostile,
    );
  await assert.rejects(
    engine.call({ op: "worktree.thread", threadId: wt.threadId } as never),
    refused("usage", /worktree\.thread: 'thread' must be a string/),
  );
  assert.ok(existsSync(wt.ref.path), "nothing is changed");
}

test("worktree.thread: a thread's id or prefix, its worktree, its other writer; paths refused (in process)", () =>
  withCliHost("acp-wt-thread-", async ({ dir, home }) => {
    await namesTheThread(localEngine({ home }), new ThreadStore(home), dir);
  }));

test("worktree.thread over the thread host's socket: the same replies and refusals", () =>
  withCliHost("acp-wt-thread-", async ({ dir, home }) => {
    await withSocketEngine(home, (engine) => namesTheThread(engine, new ThreadStore(home), dir));
  }));
