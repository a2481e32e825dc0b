// #35 item 7, a thread's worktree on the engine requests: a request names a thread, and the worktree acted on is the
// one its record keeps. Hostile: a record (or a client over the host's socket) naming a folder that is not one of our
// worktrees gets it refused and nothing removed, in process and over the socket; a request naming a folder instead
// of a thread is refused before anything is done, and so is the worktree of a thread another writer holds.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import type { Engine } from "../../../../src/core/engine/requests";
import { AcpThreadsError } from "../../../../src/core/errors";
import { connectHost } from "../../../../src/core/host/client";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { threadWith, worktreeThread } from "./helpers";

const refused = (code: string, why: RegExp) => (err: unknown) =>
  err instanceof AcpThreadsError && err.code === code && why.test(err.message);

/** A precious folder with a file; a thread whose record claims it as its worktree of `<dir>/repo`. */
function hostileThread(store: ThreadStore, dir: string, name: string): { threadId: string; victim: string } {
  const victim = join(dir, name);
  mkdirSync(victim);
  writeFileSync(join(victim, "keep.txt"), "precious\n");
  const threadId = threadWith(store, dir, 1, "Hostile");
  store.patchMetadata(threadId, {
    worktree: { path: victim, repo: join(dir, "repo"), base: "0".repeat(40), createdAt: new Date(0).toISOString() },
  });
  return { threadId, victim };
}

async function discardRefused(engine: Engine, store: ThreadStore, dir: string, name: string): Promise<void> {
  const { threadId, victim } = hostileThread(store, dir, name);
  await assert.rejects(
    engine.call({ op: "worktree.discard", threadId }),
    refused("usage", /is not a worktree folder ACP Threads manages for .*; it is left alone/),
  );
  assert.equal(readFileSync(join(victim, "keep.txt"), "utf8"), "precious\n", "nothing is removed");
  assert.equal(store.readMetadata(threadId).worktree?.path, victim, "the thread's record is unchanged");
  // a request that names the folder itself is no request at all: the engine takes no path to remove
  await assert.rejects(
    engine.call({ op: "worktree.discard", path: victim } as never),
    refused("usage", /worktree\.discard: 'threadId' must be a string/),
  );
  await assert.rejects(engine.call({ op: "worktree.discard", threadId: victim }), /is not a thread id/);
  assert.ok(existsSync(join(victim, "keep.txt")), "still there");
}

test("hostile: discarding a worktree that is not one of ours is refused and nothing is removed (in process)", () =>
  withCliHost("acp-wt-engine-", async ({ dir, home }) => {
    const store = new ThreadStore(home);
    const local = localEngine({ home });
    await discardRefused(local, store, dir, "precious");
    // a thread without a worktree: not_found, as the CLI said
    const plain = threadWith(store, dir, 1);
    for (const req of [
      { op: "worktree.state", threadId: plain },
      { op: "worktree.discard", threadId: plain },
      { op: "worktree.commit", threadId: plain, branch: "b", message: "m" },
    ] as const)
      await assert.rejects(local.call(req), refused("not_found", /has no worktree \(only threads started with/));
    // a real one whose thread another writer holds (a run, the host's session) is kept; once let go, discarded
    const wt = await worktreeThread(store, dir);
    const held = new ThreadStore(home).open(wt.threadId);
    await assert.rejects(
      local.call({ op: "worktree.discard", threadId: wt.threadId }),
      refused(
        "usage",
        /is open in process \d+ \(an editor or a run\); discard its worktree once its session is closed/,
      ),
    );
    assert.ok(existsSync(wt.ref.path), "kept while its session is open");
    held.close();
    assert.deepEqual(await local.call({ op: "worktree.discard", threadId: wt.threadId }), {
      wasMissing: false,
      warnings: [],
      path: wt.ref.path,
    });
    assert.equal(existsSync(wt.ref.path), false);
    assert.equal(store.readMetadata(wt.threadId).worktree, null);
  }));

test("hostile: over the host's socket, discarding a folder that is not one of our worktrees is refused too", () =>
  withCliHost("acp-wt-engine-", async ({ dir, home }) => {
    const store = new ThreadStore(home);
    const conn = await connectHost({ home, client: "worktree engine test" });
    assert.ok(conn);
    try {
      await discardRefused(conn.asEngine, store, dir, "precious-remote");
      // the same state and branch check over the socket as in process
      const wt = await worktreeThread(store, dir);
      writeFileSync(join(wt.ref.path, "x.txt"), "x\n");
      const local = localEngine({ home });
      assert.deepStrictEqual(
        await conn.asEngine.call({ op: "worktree.state", threadId: wt.threadId }),
        await local.call({ op: "worktree.state", threadId: wt.threadId }),
      );
      await assert.rejects(
        conn.asEngine.call({ op: "worktree.branch-name", threadId: wt.threadId, name: "a..b" }),
        refused("usage", /'a\.\.b' is not a valid branch name/),
      );
    } finally {
      conn.close();
    }
  }));

test("worktree.apply plans in the engine: a conflict refuses with the plan and writes nothing; --force applies the rest", () =>
  withCliHost("acp-wt-engine-", async ({ dir, home }) => {
    const store = new ThreadStore(home);
    const engine = localEngine({ home });
    const wt = await worktreeThread(store, dir);
    const repo = join(dir, "repo");
    writeFileSync(join(repo, "both.txt"), "base\n");
    execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "add", "both.txt"], { cwd: repo });
    // the worktree's base has no both.txt: the workspace and the worktree each made their own
    writeFileSync(join(wt.ref.path, "both.txt"), "theirs\n");
    writeFileSync(join(wt.ref.path, "only.txt"), "new\n");
    const refusedReply = await engine.call({ op: "worktree.apply", threadId: wt.threadId });
    assert.deepEqual(
      refusedReply.plan.items.map((i, n) => [i.rel, refusedReply.files[n]!.outcome]),
      [
        ["both.txt", "conflict"],
        ["only.txt", "apply"],
      ],
    );
    assert.equal(refusedReply.result, undefined);
    assert.equal(refusedReply.refused?.code, "usage");
    assert.match(
      refusedReply.refused!.message,
      /changed in the workspace since the worktree's base .*Nothing was applied/,
    );
    assert.deepEqual(refusedReply.refused?.details, { conflicts: ["both.txt"] });
    assert.equal(existsSync(join(repo, "only.txt")), false, "nothing written");
    const forced = await engine.call({ op: "worktree.apply", threadId: wt.threadId, force: true });
    assert.deepEqual([forced.result?.applied, forced.result?.skipped], [["only.txt"], ["both.txt"]]);
    assert.match(forced.result!.op!, /^apply-/);
    assert.equal(readFileSync(join(repo, "only.txt"), "utf8"), "new\n");
    assert.equal(readFileSync(join(repo, "both.txt"), "utf8"), "base\n", "the conflict is left as it was");
  }));
