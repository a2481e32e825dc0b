/**
 * The recent-threads file (#36, threads-recent.ts): `threads list` answers from it without SQLite only while the
 * disk is as it saw it; another process's write, a torn or newer file, a racy state or a query past its rows go
 * to the index, and its answers are the index's answers.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { main as threadsMain } from "../../../../src/cli/commands/threads";
import { listRecent, RECENT_ROWS, writeRecent } from "../../../../src/core/index/threads-recent";
import { withSyncedIndex, type ThreadQuery } from "../../../../src/core/index/threads-index";
import { serializeRecord, type ThreadRecord } from "../../../../src/core/model/records";
import { recentThreadsPath } from "../../../../src/core/store/change-journal";
import { newThreadId } from "../../../../src/core/store/thread-id";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { runCommand } from "../../cli/in-process";
import { startInput, withTmp } from "../store/helpers";

const MIN = 60_000;

/** The threads folder last changed a minute ago: a state taken now is not racy. */
function settle(store: ThreadStore): void {
  const t = new Date(Date.now() - MIN);
  utimesSync(store.threadsDir, t, t);
}

/** Syncs the index (every file) and writes the recent file, as a `threads list` that could not use it does. */
function refresh(store: ThreadStore): void {
  withSyncedIndex(store, (index) => writeRecent(index, store), { full: true });
}

/** A thread file as another tool (or an older version) writes it: no journal line. */
function rawThread(store: ThreadStore, i: number, ws: string, t0 = Date.now() - (i + 1) * MIN, title = `thread ${i}`) {
  const id = newThreadId(t0);
  const ts = (k: number) => new Date(t0 + k * 1000).toISOString();
  const cwd = i % 4 === 0 ? join(ws, "sub") : i % 4 === 1 ? join(ws + "-other") : ws;
  const recs: Record<string, unknown>[] = [
    {
      v: 1,
      ts: ts(0),
      kind: "thread_start",
      threadId: id,
      agent: { id: ["codex", "claude", "gemini"][i % 3], name: ["Codex", "Claude", "Gemini"][i % 3], command: "x" },
      mode: i % 5 === 0 ? "exec" : "acp",
      cwd,
      repoRoot: i % 6 === 0 ? ws : null,
      gitHead: null,
      ...(i % 3 === 0 ? { startedFrom: "automation" } : i % 3 === 1 ? { startedFrom: "cli" } : {}),
    },
    { v: 1, ts: ts(1), kind: "user_message", messageId: "u1", text: `question ${i}` },
  ];
  const patch: Record<string, unknown> = {
    status: ["idle", "failed", "done", "interrupted"][i % 4],
    title,
  };
  if (i % 7 === 0) patch.archived = true;
  if (i % 11 === 0)
    patch.worktree = { path: join(ws + "-wt", String(i)), repo: ws, base: "a".repeat(40), createdAt: ts(0) };
  recs.push({ v: 1, ts: ts(2), kind: "meta_patch", patch });
  writeFileSync(store.pathFor(id), recs.map((r) => serializeRecord(r as unknown as ThreadRecord)).join(""), {
    mode: 0o600,
  });
  return id;
}

function history(dir: string, n: number) {
  const store = new ThreadStore(join(dir, "home"));
  const ws = join(dir, "ws");
  mkdirSync(store.threadsDir, { recursive: true });
  mkdirSync(ws);
  for (let i = 0; i < n; i++) rawThread(store, i, ws);
  settle(store);
  refresh(store);
  return { store, ws, cli: (...argv: string[]) => runCommand(threadsMain, argv, { home: store.home, cwd: ws }) };
}

const answered = async (store: ThreadStore, q: ThreadQuery) => {
  const r = await listRecent(store, q);
  assert.ok("threads" in r, `answered from the file (refused: ${"refused" in r ? r.refused : ""})`);
  return r.threads;
};

test("the file's answers are the index's, for every filter it answers, over a generated history", () =>
  withTmp(async (dir) => {
    const { store, ws } = history(dir, RECENT_ROWS + 200);
    const queries: ThreadQuery[] = [
      { limit: 20 },
      { limit: 20, workspace: ws },
      { limit: 20, workspace: ws + "/" },
      { limit: 5, agent: "claude" },
      { limit: 5, agent: "Gemini", workspace: ws },
      { limit: 10, origin: "automation" },
      { limit: 10, origin: "editor" },
      { limit: 3, origin: "exec", status: "idle" },
      { limit: 10, status: "failed", archived: "only" },
      { limit: 10, archived: "include" },
      { limit: 3, worktree: true, workspace: ws },
      { since: new Date(Date.now() - 30 * MIN).toISOString() },
      { since: new Date(Date.now() - 90 * MIN).toISOString(), workspace: ws, status: "done" },
      { limit: 20, before: new Date(Date.now() - 100 * MIN).toISOString() },
    ];
    const fromIndex = withSyncedIndex(store, (index) => queries.map((q) => index.list(q)));
    for (const [i, q] of queries.entries()) assert.deepEqual(await answered(store, q), fromIndex[i], JSON.stringify(q));
    // past its rows: the index answers
    assert.deepEqual(await listRecent(store, {}), { refused: "short" });
    assert.deepEqual(await listRecent(store, { limit: 50, worktree: true }), { refused: "short" });
  }));

test("another process's write is seen: a new thread (journaled or not), a change, a delete make the file stale", () =>
  withTmp(async (dir) => {
    const { store, ws, cli } = history(dir, 30);
    const top = async () =>
      (JSON.parse((await cli("list", "--limit", "3", "--format", "json")).out) as { title: string }[])[0]!.title;
    assert.equal(await top(), "thread 2"); // 0 is archived, 1 in another workspace
    // another process of this version: the journal grows (the folder's mtime may not have moved)
    const other = new ThreadStore(store.home);
    const settled = statSync(store.threadsDir).mtime;
    const h = other.create(startInput(ws, { title: "from another process" }));
    h.close();
    utimesSync(store.threadsDir, settled, settled);
    assert.deepEqual(await listRecent(store, { limit: 3 }), { refused: "stale" });
    assert.equal(await top(), "from another process", "the new thread is listed");
    assert.ok("threads" in (await listRecent(store, { limit: 3 })), "the list wrote the file again");
    // a tool that does not journal: only the folder's mtime says so
    rawThread(store, 2, ws, Date.now(), "written by another tool");
    assert.deepEqual(await listRecent(store, { limit: 3 }), { refused: "stale" });
    assert.equal(await top(), "written by another tool");
    // a patch of a thread (journaled at open and close)
    settle(store);
    refresh(store);
    other.rename(h.threadId, "renamed elsewhere");
    assert.deepEqual(await listRecent(store, { limit: 3 }), { refused: "stale" });
    assert.match((await cli("list", "--limit", "3")).out, /renamed elsewhere/);
    other.delete(h.threadId);
    assert.deepEqual(await listRecent(store, { limit: 3 }), { refused: "stale" });
    assert.doesNotMatch((await cli("list", "--limit", "3")).out, /renamed elsewhere/);
  }));

test("a thread being written is answered only while unchanged since it was read and its writer is alive", () =>
  withTmp(async (dir) => {
    const { store, ws } = history(dir, 3);
    const h = store.create(startInput(ws, { title: "held open" }));
    settle(store);
    refresh(store);
    assert.equal((await answered(store, { limit: 1 }))[0]!.title, "held open");
    h.append({ kind: "user_message", messageId: "late", text: "more" } as never);
    h.sync();
    assert.deepEqual(await listRecent(store, { limit: 1 }), { refused: "stale" }, "it grew: read again");
    h.close();
  }));

test("a torn, corrupt or newer-version file is ignored and written again; a racy state is not trusted", () =>
  withTmp(async (dir) => {
    const { store, cli } = history(dir, 5);
    const path = recentThreadsPath(store.layout.threadIndexDb);
    const good = readFileSync(path, "utf8");
    const parsed = JSON.parse(good) as { v: number; state: { checkedAt: number; dirMtime: number } };
    const lies = [
      good.slice(0, good.length / 2), // torn
      "\u0000garbage",
      JSON.stringify({ ...parsed, v: parsed.v + 1, rows: [] }), // a newer version's: not read
      JSON.stringify({ ...parsed, rows: [{ thread: { id: 5 } }] }),
    ];
    for (const text of lies) {
      writeFileSync(path, text);
      assert.deepEqual(await listRecent(store, { limit: 3 }), { refused: "unusable" });
      const res = await cli("list", "--all", "--limit", "3", "--format", "json");
      assert.equal(res.code, 0, res.err);
      assert.equal((JSON.parse(res.out) as unknown[]).length, 3);
      assert.ok("threads" in (await listRecent(store, { limit: 3 })), "written again by the list");
    }
    // the state was taken within the folder mtime's granularity: a later change may have left the mtime as it was
    writeFileSync(
      path,
      JSON.stringify({ ...parsed, state: { ...parsed.state, checkedAt: parsed.state.dirMtime + 5 } }),
    );
    assert.deepEqual(await listRecent(store, { limit: 3 }), { refused: "racy" });
    assert.equal((await cli("list", "--all", "--limit", "3")).code, 0);
    assert.ok("threads" in (await listRecent(store, { limit: 3 })), "verified (every file) and written again");
  }));
