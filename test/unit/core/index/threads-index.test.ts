import assert from "node:assert/strict";
import { appendFileSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  groupByDay,
  listThreadsIndexed,
  openSyncedIndex,
  openThreadIndex,
  syncThreadIndex,
  type SyncStats,
  type ThreadIndex,
} from "../../../../src/core/index/threads-index";
import { ThreadStore, type CreateThreadInput } from "../../../../src/core/store/thread-store";
import { exitOf, spawnChild, startInput, waitForLine, withTmp } from "../store/helpers";

function seed(
  store: ThreadStore,
  dir: string,
  n: number,
  extra: (i: number) => Partial<CreateThreadInput> = () => ({}),
) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const h = store.create(
      startInput(join(dir, i % 2 ? "a" : "b"), extra(i)),
      new Date(Date.UTC(2026, 0, 1 + (i % 3), 12, i)),
    );
    h.append({ kind: "user_message", messageId: `u${i}`, text: `q${i}` });
    h.patch({ title: `thread ${i}`, counters: { turns: 1, userMessages: 1, agentMessages: 0 } });
    h.close();
    ids.push(h.threadId);
  }
  return ids;
}

interface IndexCtx {
  dir: string;
  store: ThreadStore;
  ids: string[];
  index: ThreadIndex;
  stats: SyncStats;
}

/** A temp home with `n` seeded threads and a synced index (closed afterwards). */
function withIndex(
  n: number,
  fn: (c: IndexCtx) => void | Promise<void>,
  extra?: (i: number) => Partial<CreateThreadInput>,
) {
  return withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const ids = seed(store, dir, n, extra);
    const { index, stats } = openSyncedIndex(store);
    try {
      await fn({ dir, store, ids, index, stats });
    } finally {
      index.close();
    }
  });
}

const codexOrClaude = (i: number) => ({ agent: { id: i < 3 ? "codex" : "claude", name: "X", command: "/x" } });

test("the index lists threads by workspace and agent, most recent first, grouped by day", () =>
  withIndex(
    6,
    ({ dir, index }) => {
      assert.equal(index.count(), 6);
      const all = index.list();
      assert.deepEqual(
        all.map((t) => t.lastActivity),
        [...all.map((t) => t.lastActivity)].sort().reverse(),
      );
      assert.equal(index.list({ workspace: join(dir, "a") }).length, 3);
      assert.equal(index.list({ workspace: dir }).length, 6, "a cwd below the workspace folder counts");
      assert.equal(index.list({ agent: "codex" }).length, 3);
      assert.equal(index.list({ limit: 2 }).length, 2);
      assert.deepEqual(
        index.listMetadata({ agent: "claude" }).map((m) => m.agent.id),
        ["claude", "claude", "claude"],
      );
      assert.ok(all[0]!.title?.startsWith("thread "));
      assert.equal(all[0]!.messages, 1);
      assert.equal(groupByDay(all).length, 1, "every thread was active today");
      const at = (iso: string) => ({ ...all[0]!, lastActivity: iso });
      const days = groupByDay([at("2026-03-02T12:00:00"), at("2026-03-02T08:00:00"), at("2026-03-01T12:00:00")]);
      assert.deepEqual(
        days.map((d) => [d.day, d.threads.length]),
        [
          ["2026-03-02", 2],
          ["2026-03-01", 1],
        ],
      );
    },
    codexOrClaude,
  ));

test("a sync re-reads only the tail of a grown file", () =>
  withIndex(2, ({ store, ids, index, stats }) => {
    assert.equal(stats.fullRead, 2);
    // a quiet folder (#36): nothing is stat'ed or read
    assert.deepEqual(
      { ...syncThreadIndex(index, store) },
      { scanned: 0, unchanged: 0, tailRead: 0, fullRead: 0, removed: 0, failed: 0, path: "journal" },
    );
    assert.deepEqual(
      { ...syncThreadIndex(index, store, { full: true }) },
      { scanned: 2, unchanged: 2, tailRead: 0, fullRead: 0, removed: 0, failed: 0, path: "full" },
    );
    store.patchMetadata(ids[0]!, { title: "renamed" });
    const grown = syncThreadIndex(index, store);
    assert.equal(grown.tailRead, 1);
    assert.equal(index.get(ids[0]!)!.title, "renamed");
    assert.equal(index.get(ids[0]!)!.turns, 1, "state carried across the tail read");
  }));

test("a shrunk, replaced or deleted file is re-read whole or dropped", () =>
  withIndex(3, async ({ store, ids, index }) => {
    // replaced: thread 1's file now holds thread 2's (longer) bytes under its name
    const replaced = store.pathFor(ids[1]!);
    writeFileSync(replaced, readFileSync(store.pathFor(ids[2]!)).toString() + "\n");
    store.patchMetadata(ids[1]!, { title: "after replace" });
    assert.equal(syncThreadIndex(index, store).fullRead, 1);
    assert.equal(index.get(ids[1]!)!.title, "after replace");
    const path = store.pathFor(ids[0]!);
    truncateSync(path, 10);
    appendFileSync(path, "\n");
    // changed in place by another tool (no lock, no journal line): a full sync (`threads list --rescan`) sees it
    assert.equal(
      syncThreadIndex(index, store, { full: true }).failed,
      1,
      "a file that is no longer a thread leaves the index",
    );
    assert.equal(index.get(ids[0]!), undefined);
    store.delete(ids[2]!);
    assert.equal(syncThreadIndex(index, store).removed, 1);
    assert.deepEqual(
      (await listThreadsIndexed(store)).map((m) => m.title),
      ["after replace"],
    );
  }));

test("a torn tail is indexed up to the last complete line and picked up once completed", () =>
  withIndex(1, ({ store, ids, index }) => {
    const path = store.pathFor(ids[0]!);
    const line = JSON.stringify({ v: 1, ts: "2030-01-01T00:00:00.000Z", kind: "meta_patch", patch: { title: "late" } });
    // a writer holds the thread (its lock) while the line is written in two parts
    const writer = new ThreadStore(store.home).open(ids[0]!);
    try {
      appendFileSync(path, line.slice(0, 20));
      syncThreadIndex(index, store);
      assert.equal(index.get(ids[0]!)!.title, "thread 0");
      appendFileSync(path, line.slice(20) + "\n");
      assert.equal(syncThreadIndex(index, store).path, "journal", "nothing created or unlocked since");
      assert.equal(index.get(ids[0]!)!.title, "late", "a locked thread is read on every sync");
    } finally {
      writer.close();
    }
  }));

test("a corrupt index file is rebuilt from the thread files", () =>
  withTmp((dir) => {
    const store = new ThreadStore(join(dir, "home"));
    seed(store, dir, 3);
    openSyncedIndex(store).index.close();
    writeFileSync(
      store.layout.threadIndexDb,
      Buffer.from("this is not a sqlite database at all, just garbage bytes".repeat(100)),
    );
    const { index, stats } = openSyncedIndex(store);
    index.close();
    assert.equal(index.created, true);
    assert.equal(stats.fullRead, 3);
  }));

test("titles with key-like strings are redacted in the index", () =>
  withIndex(1, ({ store, ids, index }) => {
    store.rename(ids[0]!, "use sk-abcdefghijklmnopqrstuvwxyz123456");
    syncThreadIndex(index, store);
    assert.equal(index.list()[0]!.title, "use [REDACTED]");
  }));

test("two processes syncing the same index at once both end with every thread indexed", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    seed(store, dir, 40);
    const children = [spawnChild(["sync", store.home, "5"]), spawnChild(["sync", store.home, "5"])];
    const lines = await Promise.all(children.map((c) => waitForLine(c, /^synced \d+$/)));
    await Promise.all(children.map(exitOf));
    assert.deepEqual(lines, ["synced 40", "synced 40"]);
    const index = openThreadIndex(store.layout.threadIndexDb);
    try {
      assert.equal(index.created, false);
      assert.equal(index.count(), 40);
      assert.equal(syncThreadIndex(index, store, { full: true }).unchanged, 40);
    } finally {
      index.close();
    }
  }));
