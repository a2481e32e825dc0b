// The Sessions view's first paint with no usable recent-threads file (#36): the newest thread files read without
// the index's worker, whole groups only, nothing shown that the index's rows then contradict.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ThreadCatalog } from "../../../../src/core/index/thread-catalog";
import { COLD_ROWS, MTIME_SLACK_MS } from "../../../../src/core/index/threads-cold";
import type { ThreadQuery } from "../../../../src/core/index/threads-index";
import type { ThreadMetadata } from "../../../../src/core/model/metadata";
import { serializeRecord } from "../../../../src/core/model/records";
import { recentThreadsPath } from "../../../../src/core/store/change-journal";
import { newThreadId } from "../../../../src/core/store/thread-id";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { wholeGroups } from "../../../../src/vscode/sessions-groups";
import { withTmp } from "../store/helpers";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { gatedWorker } from "../../../fixtures/threads/gated-catalog-worker";
import { writeRawThreads } from "../../../fixtures/threads/raw-threads";

/** The catalog's first-load worker, as the build bundles it. */
const CATALOG_WORKER = join(repoRoot(), "dist", "catalog-worker.js");
const STEP = 20 * 60_000; // 600 threads over ~8 days: day groups, the older ones not read first

/** Threads as writes over time leave them (each file's mtime its record's time), in two workspaces. */
function history(store: ThreadStore, dir: string, n: number): { ids: string[]; a: string } {
  const a = join(dir, "ws-a");
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push(...writeRawThreads(store, 1, i % 2 ? join(dir, "ws-b") : a, { mtime: true, stepMs: (i + 1) * STEP }));
  return { ids, a };
}

/** `listFirst` while the catalog's worker is held shut (undefined: no answer within `ms`). */
const firstWhileHeld = (catalog: ThreadCatalog, q: ThreadQuery = {}, ms = 10_000) =>
  Promise.race([catalog.listFirst(q), new Promise<undefined>((resolve) => setTimeout(resolve, ms))]);

/** Appends a record to a thread file as another writer would, then gives the file `mtime`. */
function appendRaw(store: ThreadStore, id: string, rec: Record<string, unknown>, text?: string, mtime?: Date): void {
  const path = store.pathFor(id);
  fs.appendFileSync(path, text ?? serializeRecord({ v: 1, ...rec } as never));
  if (mtime) fs.utimesSync(path, mtime, mtime);
}

/**
 * What the first paint showed is the top of the final list: every thread last active after the bound is in, each
 * as the index has it, and the whole groups painted are the final list's first groups, whole.
 */
function assertWhole(first: { threads: ThreadMetadata[]; partialBefore?: string }, all: ThreadMetadata[]): void {
  const byId = new Map(first.threads.map((m) => [m.threadId, m]));
  for (const m of all)
    if (first.partialBefore === undefined || m.lastActivity > first.partialBefore)
      assert.deepEqual(byId.get(m.threadId), m, `${m.threadId} (${m.lastActivity}) painted as the index has it`);
  const shown = wholeGroups(first.threads, (m) => m.lastActivity, first.partialBefore);
  assert.ok(shown.length > 0, "whole groups painted");
  assert.deepEqual(shown, all.slice(0, shown.length), "the painted groups are the final list's, whole");
}

/**
 * A catalog whose worker is held shut: `allIn` opens the gate, waits for the index's rows and lists; `close` also
 * waits for them (the worker's last file written before the home goes: a worker left running keeps the test's
 * process alive, also when an assertion failed before).
 */
function heldCatalog(store: ThreadStore, dir: string) {
  const gate = gatedWorker(dir, CATALOG_WORKER);
  const catalog = new ThreadCatalog(store, { watch: false, worker: gate.script });
  const changed = new Promise<void>((resolve) => catalog.onDidChange(() => resolve()));
  return {
    catalog,
    async allIn(q: ThreadQuery = {}): Promise<ThreadMetadata[]> {
      gate.openGate();
      await changed;
      return catalog.list(q);
    },
    async close(): Promise<void> {
      gate.openGate();
      await Promise.race([changed, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      catalog.dispose();
    },
  };
}

for (const from of ["a first run (no recent-threads file)", "a first run, a filter", "a damaged recent-threads file"])
  test(`${from}: the first paint reads the newest thread files without the index, whole groups only, each row as the index has it`, () =>
    withTmp(async (dir) => {
      const store = new ThreadStore(join(dir, "home"));
      const { ids, a } = history(store, dir, 600);
      if (from.includes("damaged")) {
        const warm = new ThreadCatalog(store, { watch: false, worker: CATALOG_WORKER });
        await warm.list(); // its worker leaves the recent-threads file
        warm.dispose();
        const file = recentThreadsPath(store.layout.threadIndexDb);
        fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2)); // torn
      }
      const q: ThreadQuery = from.includes("filter") ? { workspace: a } : {};
      const held = heldCatalog(store, dir);
      try {
        const first = await firstWhileHeld(held.catalog, q);
        assert.ok(first, "the first paint answered while the worker was held");
        assert.equal(first.threads[0]!.threadId, ids[0], "the newest first");
        assert.ok(first.partialBefore, "the older threads are not read: a bound");
        assert.ok(first.threads.length <= COLD_ROWS, `${first.threads.length} rows`);
        const all = await held.allIn(q);
        assert.equal(all.length, q.workspace ? 300 : 600);
        assertWhole(first, all);
      } finally {
        await held.close();
      }
    }));

test("the first paint without the index: a torn tail, a corrupt file, a record a second past its file's mtime, a thread deleted while listed", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const { ids } = history(store, dir, 400);
    const now = Date.now();
    // a thread being written: its last line torn (no newline yet)
    appendRaw(store, ids[1]!, {}, `{"v":1,"ts":"${new Date(now).toISOString()}","kind":"meta_patch","patch":{"ti`);
    // another tool's file that holds no thread, the newest
    const corrupt = newThreadId(now);
    fs.writeFileSync(store.pathFor(corrupt), "not a thread\n");
    // a record a second later than its file's mtime (whole-second mtimes): within the slack
    const ts = new Date(now - 30_000);
    appendRaw(
      store,
      ids[2]!,
      { ts: ts.toISOString(), kind: "meta_patch", patch: { status: "failed" } },
      undefined,
      new Date(ts.getTime() - 1_000),
    );
    // the newest thread deleted while the files are read (at the 60th read)
    const table = fs.promises; // the object the catalog's node:fs/promises import is
    const open = table.open;
    let reads = 0;
    table.open = ((path: fs.PathLike, ...rest: []) => {
      if (String(path).endsWith(".jsonl") && ++reads === 60) fs.rmSync(store.pathFor(ids[0]!));
      return open(path, ...rest);
    }) as typeof fs.promises.open;
    const held = heldCatalog(store, dir);
    try {
      const first = await firstWhileHeld(held.catalog);
      table.open = open;
      assert.ok(first, "the first paint answered while the worker was held");
      const byId = new Map(first.threads.map((m) => [m.threadId, m]));
      assert.ok(!byId.has(ids[0]!), "a thread deleted while listed is not shown");
      assert.ok(!byId.has(corrupt), "a file with no thread is not shown");
      assert.equal(byId.get(ids[1]!)?.title, "t0", "a torn tail: the complete records");
      assert.equal(byId.get(ids[2]!)?.status, "failed", "a record within the mtime's slack");
      const all = await held.allIn();
      assert.equal(all.length, 399);
      assertWhole(first, all);
    } finally {
      table.open = open;
      await held.close();
    }
  }));

test("the first paint without the index waits for it when a newest thread's last record is later than its file's mtime (mtimes that cannot bound the others)", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const { ids } = history(store, dir, 400);
    const painted = async (sub: string) => {
      const held = heldCatalog(store, fs.mkdtempSync(join(dir, sub)));
      try {
        // an answer that must not come in the second case: a wait, not a speed assertion
        const first = await firstWhileHeld(held.catalog, {}, 1_000);
        await held.allIn();
        return !!first;
      } finally {
        await held.close();
        fs.rmSync(recentThreadsPath(store.layout.threadIndexDb), { force: true }); // the worker left it
      }
    };
    assert.equal(await painted("clean-"), true, "mtimes that follow the records: painted without the index");
    // a thread read first whose last record is later than its file's mtime by more than the slack
    const ts = new Date(Date.now() - 60_000);
    appendRaw(
      store,
      ids[3]!,
      { ts: ts.toISOString(), kind: "user_message", messageId: "u1", text: "hi" },
      undefined,
      new Date(ts.getTime() - MTIME_SLACK_MS - 5_000),
    );
    assert.equal(await painted("skewed-"), false, "no paint without the index");
  }));

test("a catalog disposed after its first paint does not load the index on its own thread when its worker fails (a window closed, a test's home removed)", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    history(store, dir, 20);
    const failing = join(dir, "failing-worker.js");
    fs.writeFileSync(failing, `setTimeout(() => { throw new Error("the worker failed"); }, 200);`);
    const catalog = new ThreadCatalog(store, { watch: false, worker: failing });
    assert.equal((await catalog.listFirst()).threads.length, 20, "painted from the thread files");
    catalog.dispose();
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // the worker fails meanwhile: a wait, not a speed assertion
    assert.ok(!fs.existsSync(store.layout.threadIndexDb), "no index opened on this thread for a disposed catalog");
  }));

/**
 * Thread-file stats (`fs.stat` callbacks: the first paint's walk) held until `release`: the walk that the index's
 * worker overtakes under load. `started` counts the thread-file stats begun.
 */
function holdStats(store: ThreadStore) {
  const table = require("node:fs") as typeof fs; // the module object the catalog's node:fs import reads
  const stat = table.stat;
  const held: (() => void)[] = [];
  let open = false;
  const counts = { started: 0 };
  table.stat = ((path: fs.PathLike, cb: (err: NodeJS.ErrnoException | null, st: fs.Stats) => void) => {
    if (!String(path).startsWith(store.threadsDir)) return stat(path, cb);
    counts.started++;
    if (open) return stat(path, cb);
    held.push(() => stat(path, cb));
  }) as typeof fs.stat;
  return {
    counts,
    release(): void {
      open = true;
      for (const go of held.splice(0)) go();
    },
    restore: () => (table.stat = stat),
  };
}

test("the index's worker answers before the thread files' walk ends: its first message paints (whole groups), the walk stops, the late rows complete the list", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const { ids } = history(store, dir, 600);
    const stats = holdStats(store);
    const catalog = new ThreadCatalog(store, { watch: false, worker: CATALOG_WORKER });
    const changed = new Promise<void>((resolve) => catalog.onDidChange(() => resolve()));
    try {
      // the walk is held: only the worker can answer (a wait for it, not a speed assertion)
      const first = await firstWhileHeld(catalog, {}, 30_000);
      assert.ok(first, "the worker's first message painted while the walk was held");
      const begun = stats.counts.started;
      stats.release();
      assert.equal(first.threads[0]!.threadId, ids[0], "the newest first");
      assert.ok(first.partialBefore, "the worker's first rows: a bound");
      await changed;
      const all = await catalog.list();
      assert.equal(all.length, 600);
      assertWhole(first, all);
      assert.ok(
        stats.counts.started <= begun + 32,
        `the walk stopped (${stats.counts.started - begun} stats after the paint)`,
      );
    } finally {
      stats.restore();
      catalog.dispose();
    }
  }));

test("a worker that fails at once does not leave the first paint empty: the thread files paint, or the index loads here", () =>
  withTmp(async (dir) => {
    const failing = join(dir, "failing-worker.js");
    fs.writeFileSync(failing, `throw new Error("the worker failed");`);
    for (const mtimes of [true, false]) {
      // with their records' mtimes the thread files can paint; written at once (mtimes ≈ now) they settle nothing
      const store = new ThreadStore(join(dir, `home-${mtimes}`));
      const ids = writeRawThreads(store, 150, dir, { mtime: mtimes, stepMs: STEP });
      const catalog = new ThreadCatalog(store, { watch: false, worker: failing });
      try {
        const first = await catalog.listFirst();
        assert.equal(first.threads[0]?.threadId, ids[0], `${mtimes ? "the files'" : "the index's"} rows painted`);
        const all = await catalog.list();
        assert.equal(all.length, 150, "every thread in once the worker failed");
        assertWhole(first, all);
      } finally {
        catalog.dispose();
      }
    }
  }));
