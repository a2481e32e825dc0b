// #35 item 7, the Best of N records on the engine requests: `bestof.list` and `bestof.read` read the data home's
// own record file; a record is named by its id or a unique start of one, never a file. A finished record comes with
// its candidates' summaries, made from the record and the threads: nothing runs and nothing is removed. Hostile: a
// path in place of the id is a usage error; a finished record whose candidate kept a worktree but no thread does not
// get that worktree removed by a read (the finisher's job), in process and over the host's socket.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import type { Engine } from "../../../../src/core/engine/requests";
import { AcpThreadsError } from "../../../../src/core/errors";
import { homeLayout } from "../../../../src/core/store/paths";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { newBestOfRecord, type BestOfRecord } from "../../../../src/core/worktree/best-of-record";
import { BestOfRecords } from "../../../../src/core/worktree/best-of-records";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { threadWith, withSocketEngine, worktreeThread } from "./helpers";

const refused = (code: string, why: RegExp) => (err: unknown) =>
  err instanceof AcpThreadsError && err.code === code && why.test(err.message);

const spec = (label: string) => ({ agentId: "fake", name: "fake", run: 1, label });

/** A finished record (one candidate with its thread, one that kept a worktree but never got a thread), an open one. */
async function recorded(
  store: ThreadStore,
  dir: string,
): Promise<{ done: BestOfRecord; open: BestOfRecord; kept: string }> {
  const records = new BestOfRecords(homeLayout(store.home).bestOfFile);
  const threadId = threadWith(store, dir, 1, "Candidate");
  const orphan = await worktreeThread(store, dir);
  const base = { cwd: dir, repo: join(dir, "repo"), base: orphan.ref.base, prompt: "do it" };
  const done = newBestOfRecord({ ...base, candidates: [spec("fake#1"), spec("fake#2")] });
  done.id = "aaaa00000001";
  done.finishedAt = new Date(0).toISOString();
  done.candidates[0] = { ...done.candidates[0]!, threadId, agent: { ok: true, stopReason: "end_turn", durationMs: 7 } };
  done.candidates[1] = {
    ...done.candidates[1]!,
    worktree: orphan.ref,
    cwd: orphan.ref.path,
    agent: { ok: false, stopReason: null, error: "did not start", durationMs: 0 },
  };
  const open = newBestOfRecord({ ...base, candidates: [spec("fake#1")] });
  open.id = "aaaa00000002";
  await records.add(done);
  await records.add(open);
  return { done, open, kept: orphan.ref.path };
}

async function readsRecords(engine: Engine, store: ThreadStore, dir: string): Promise<void> {
  const { done, open, kept } = await recorded(store, dir);
  assert.deepEqual(await engine.call({ op: "bestof.list" }), [done, open]);
  assert.deepEqual(await engine.call({ op: "bestof.read" }), { record: open }, "none named: the newest, open");
  const read = await engine.call({ op: "bestof.read", id: "aaaa00000001" });
  assert.deepEqual(read.record, done);
  assert.deepEqual(
    read.summaries?.map((c) => [c.label, c.status, c.answer, c.worktree, c.durationMs]),
    [
      ["fake#1", "done", "answer 0", null, 7],
      ["fake#2", "failed", "", null, 0],
    ],
  );
  assert.ok(existsSync(kept), "a read removes no worktree, even one no thread holds");
  await assert.rejects(engine.call({ op: "bestof.read", id: "aaaa" }), refused("usage", /aaaa names several/));
  await assert.rejects(engine.call({ op: "bestof.read", id: "ffff" }), refused("not_found", /no Best of N ffff/));
  for (const hostile of ["../x", kept, "", homeLayout(store.home).bestOfFile])
    await assert.rejects(
      engine.call({ op: "bestof.read", id: hostile }),
      refused("usage", /is not a Best of N id/),
      hostile,
    );
  await assert.rejects(
    engine.call({ op: "bestof.read", id: 12 } as never),
    refused("usage", /bestof\.read: 'id' must be a string/),
  );
}

test("bestof.list and bestof.read: the records, one named by a start of its id, a finished one summarised (in process)", () =>
  withCliHost("acp-bestof-engine-", async ({ dir, home }) => {
    const store = new ThreadStore(home);
    await readsRecords(localEngine({ home }), store, dir);
  }));

test("bestof.read over the thread host's socket: the same replies and refusals", () =>
  withCliHost("acp-bestof-engine-", async ({ dir, home }) => {
    await withSocketEngine(home, (engine) => readsRecords(engine, new ThreadStore(home), dir));
  }));
