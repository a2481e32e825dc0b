// The in-memory thread catalog behind the Sessions tree never answers with metadata it knows is out of date.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { FIRST_ROWS } from "../../../../src/core/index/catalog-load";
import { ThreadCatalog } from "../../../../src/core/index/thread-catalog";
import { COLD_ROWS } from "../../../../src/core/index/threads-cold";
import { RECENT_ROWS } from "../../../../src/core/index/threads-recent";
import { serializeRecord } from "../../../../src/core/model/records";
import { recentThreadsPath } from "../../../../src/core/store/change-journal";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { startInput, withTmp } from "../store/helpers";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { gatedWorker } from "../../../fixtures/threads/gated-catalog-worker";
import { writeRawThreads } from "../../../fixtures/threads/raw-threads";

test("a thread whose file changed reads as unknown until the next list reads it again", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const handle = store.create(startInput(dir));
    const id = handle.threadId;
    handle.close();
    const catalog = new ThreadCatalog(store, { throttleMs: 10 });
    try {
      await catalog.list();
      assert.deepEqual(catalog.get(id)?.handedOffTo, []);
      store.patchMetadata(id, { handedOffTo: ["01a2152e-1d84-72b4-94dc-93f096049bf2"] });
      assert.equal(catalog.get(id), undefined, "a changed thread is not answered from the old read");
      await catalog.list();
      assert.deepEqual(catalog.get(id)?.handedOffTo, ["01a2152e-1d84-72b4-94dc-93f096049bf2"]);
    } finally {
      catalog.dispose();
    }
  }));

/** The catalog's first-load worker, as the build bundles it. */
const CATALOG_WORKER = join(repoRoot(), "dist", "catalog-worker.js");

const writeRaw = (store: ThreadStore, n: number, cwd: string) => writeRawThreads(store, n, cwd);

/** Counts the thread files `fn` opens through node:fs/promises (the catalog's own reads, one by one). */
async function threadReads<T>(fn: () => Promise<T>): Promise<{ value: T; reads: number }> {
  const table = fs.promises; // the object the catalog's node:fs/promises import is
  const orig = table.open;
  let reads = 0;
  table.open = ((path: fs.PathLike, ...rest: []) => {
    if (String(path).endsWith(".jsonl")) reads++;
    return orig(path, ...rest);
  }) as typeof fs.promises.open;
  try {
    return { value: await fn(), reads };
  } finally {
    table.open = orig;
  }
}

for (const from of ["the worker's first message", "the recent-threads file"])
  test(`the first paint lists the newest threads from ${from}; threads whose rows are still on their way are not read one by one; the others arrive with a change event`, () =>
    withTmp(async (dir) => {
      const store = new ThreadStore(join(dir, "home"));
      const ids = writeRaw(store, FIRST_ROWS + 100, dir);
      const t = new Date(Date.now() - 60_000);
      fs.utimesSync(store.threadsDir, t, t); // settled: a state taken now is not racy
      if (from === "the recent-threads file") {
        const warm = new ThreadCatalog(store, { watch: false, worker: CATALOG_WORKER });
        await warm.list(); // its worker leaves the recent-threads file
        warm.dispose();
        assert.ok(fs.existsSync(recentThreadsPath(store.layout.threadIndexDb)));
      }
      const catalog = new ThreadCatalog(store, { watch: false, worker: CATALOG_WORKER });
      try {
        const allIn = new Promise<void>((resolve) => catalog.onDidChange(() => resolve()));
        const { value: first, reads } = await threadReads(async () => {
          const { threads: rows } = await catalog.listFirst();
          await allIn;
          return rows;
        });
        // no recent-threads file: the first paint's try without the index reads at most the newest COLD_ROWS files
        // (these, written at once, settle no group: the worker's rows paint); never the others one by one
        const cold = from === "the recent-threads file" ? 0 : COLD_ROWS;
        assert.ok(reads <= cold, `${reads} thread files read one by one: the index has them all`);
        assert.equal(first[0]!.threadId, ids[0], "the newest first");
        assert.ok(first.length >= FIRST_ROWS, `${first.length} rows`);
        const later = writeRaw(new ThreadStore(store.home), 1, dir)[0]!; // after the first load: a new thread
        const all = await catalog.list();
        assert.equal(all.length, ids.length + 1);
        assert.ok(all.some((m) => m.threadId === later));
      } finally {
        catalog.dispose();
      }
    }));

test("a list that finds a new thread while another list's read is under way answers with it (the Sessions view's flake on VS Code 1.96)", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir, { title: "closing" }));
    const closing = h.threadId;
    const catalog = new ThreadCatalog(store, { watch: false, throttleMs: 10 });
    const table = fs.promises; // the object the catalog's node:fs/promises import is
    const open = table.open;
    try {
      await catalog.list();
      // the first list's read of the thread that just closed is held until the new thread is written and listed
      let reached!: () => void;
      const atRead = new Promise<void>((resolve) => (reached = resolve));
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      table.open = (async (path: fs.PathLike, ...rest: []) => {
        if (String(path) === store.pathFor(closing)) {
          reached();
          await gate;
        }
        return open(path, ...rest);
      }) as typeof fs.promises.open;
      h.append({ kind: "user_message", messageId: "u1", text: "last words" } as never);
      h.close(); // the store's event marks it changed
      const first = catalog.list(); // the tree's refresh after the session closed
      await atRead;
      const fresh = writeRaw(new ThreadStore(store.home), 1, dir)[0]!; // written just before the test's listing
      const second = catalog.list(); // the test's getChildren()
      await new Promise((r) => setTimeout(r, 20)); // its folder listing found the new thread
      release();
      await first;
      assert.ok(
        (await second).some((m) => m.threadId === fresh),
        "the second list waited for the read of what it found",
      );
    } finally {
      table.open = open;
      catalog.dispose();
    }
  }));

test("a recent-threads file the disk moved past paints first without the index: what changed since is read before it answers, nothing shown is out of date, the index's rows replace it", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const ids = writeRaw(store, RECENT_ROWS + 100, dir);
    const t = new Date(Date.now() - 60_000);
    fs.utimesSync(store.threadsDir, t, t); // settled: a state taken now is not racy
    const warm = new ThreadCatalog(store, { watch: false, worker: CATALOG_WORKER });
    await warm.list(); // its worker leaves the recent-threads file
    warm.dispose();
    // since: another window (journaled) started a thread, renamed one and deleted one; a tool appended to a
    // thread without a journal line, and another tool wrote a thread
    const other = new ThreadStore(store.home);
    const h = other.create(startInput(dir, { title: "started since" }));
    const started = h.threadId;
    h.close();
    other.patchMetadata(ids[3]!, { title: "renamed since" });
    other.delete(ids[4]!);
    const toolPatch = { v: 1, ts: new Date(Date.now() - 5 * 60_000).toISOString(), kind: "meta_patch" };
    fs.appendFileSync(store.pathFor(ids[5]!), serializeRecord({ ...toolPatch, patch: { title: "tool" } } as never));
    const unjournaled = writeRaw(other, 1, dir)[0]!;
    const gate = gatedWorker(dir, CATALOG_WORKER);
    const catalog = new ThreadCatalog(store, { watch: false, worker: gate.script });
    try {
      const allIn = new Promise<void>((resolve) => catalog.onDidChange(() => resolve()));
      const first = await Promise.race([
        catalog.listFirst(),
        new Promise<undefined>((resolve) => setTimeout(resolve, 10_000)),
      ]);
      assert.ok(first, "the first paint answered while the worker was held");
      const titles = new Map(first.threads.map((m) => [m.threadId, m.title]));
      assert.equal(first.threads[0]!.threadId, started, "a thread started since, the newest");
      assert.equal(titles.get(ids[3]!), "renamed since");
      assert.equal(titles.get(ids[5]!), "tool", "a change without a journal line: the row's file changed");
      assert.ok(!titles.has(ids[4]!), "a deleted thread is not shown");
      assert.ok(!titles.has(unjournaled), "a thread no journal names is not known before the index's rows");
      assert.equal(first.partialBefore, first.threads.at(-1)!.lastActivity, "the rows cover every thread after");
      gate.openGate();
      await allIn;
      const all = await catalog.list();
      const byId = new Map(all.map((m) => [m.threadId, m]));
      for (const m of first.threads) assert.deepEqual(m, byId.get(m.threadId), `${m.threadId} as the index has it`);
      assert.equal(all.length, ids.length + 1);
      assert.ok(byId.has(unjournaled), "the tool's thread, with the index's rows");
      assert.equal((await catalog.listFirst()).partialBefore, undefined, "every row in");
    } finally {
      gate.openGate(); // a worker still held would keep the test's process alive
      catalog.dispose();
    }
  }));

test("a recent-threads file whose folder changed with no journal line since (another tool wrote) is not used: the first paint reads the thread files, the tool's thread in", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    writeRaw(store, 50, dir);
    const t = new Date(Date.now() - 60_000);
    fs.utimesSync(store.threadsDir, t, t); // settled: a state taken now is not racy
    const warm = new ThreadCatalog(store, { watch: false, worker: CATALOG_WORKER });
    await warm.list();
    warm.dispose();
    const tool = writeRaw(new ThreadStore(store.home), 1, dir)[0]!; // no journal line: unknown to the file
    const gate = gatedWorker(dir, CATALOG_WORKER);
    const catalog = new ThreadCatalog(store, { watch: false, worker: gate.script });
    try {
      const allIn = new Promise<void>((resolve) => catalog.onDidChange(() => resolve()));
      const first = await Promise.race([
        catalog.listFirst(),
        new Promise<undefined>((resolve) => setTimeout(resolve, 10_000)),
      ]);
      assert.ok(first, "the first paint answered while the worker was held (from the thread files)");
      assert.ok(
        first.threads.some((m) => m.threadId === tool),
        "the tool's thread",
      );
      assert.equal(first.threads.length, 51);
      assert.equal(first.partialBefore, undefined, "every thread read");
      gate.openGate();
      await allIn; // the worker's done (its last file written) before the home goes
      assert.deepEqual((await catalog.list()).length, 51);
    } finally {
      gate.openGate();
      catalog.dispose();
    }
  }));
