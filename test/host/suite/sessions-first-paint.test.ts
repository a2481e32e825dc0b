/**
 * The Sessions view's first paint at history scale (#36), in the real extension host with the real catalog
 * worker: the tree's first listing paints the newest threads from the first rows that arrive (the recent-threads
 * file the worker left, else the worker's first message; a file the history moved past too, the threads changed since
 * read first; on a first run the newest thread files by mtime), whole day/month groups only, before the others,
 * which come with a change event.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { RECENT_ROWS } from "../../../src/core/index/threads-recent";
import { ThreadStore } from "../../../src/core/store/thread-store";
import { PastThreads } from "../../../src/vscode/past-threads";
import { SessionsTree, type SessionNode } from "../../../src/vscode/sessions-tree";
import { wholeGroups } from "../../../src/vscode/sessions-groups";
import { gatedWorker } from "../../fixtures/threads/gated-catalog-worker";
import { writeRawThreads } from "../../fixtures/threads/raw-threads";
import { api, EXTENSION_ID, waitFor } from "./helpers";

const TOTAL = 2000;

/**
 * `n` threads in `cwd`, one every 30 minutes back from now, as files an earlier run left (`mtime`: each file's
 * mtime its record's time, as writes over time leave them; else now, as an import leaves them); the folder settled.
 * 30 minutes: a first run's newest thread files (`COLD_ROWS`, 100) span 50 h, so a whole day is among them at any
 * time of day (one every 10 minutes, 16.7 h: after 16:40 the Today group was never whole and the paint was empty).
 */
function writeHistory(store: ThreadStore, cwd: string, n: number, mtime: boolean): string[] {
  const ids = writeRawThreads(store, n, cwd, { stepMs: 1_800_000, title: (i) => `history ${i}`, mtime });
  const settled = new Date(Date.now() - 60_000);
  utimesSync(store.threadsDir, settled, settled);
  return ids;
}

type PastNode = Extract<SessionNode, { type: "past" }>;

/** The past threads' rows of every group (live sessions of other tests aside). */
const rowsOf = async (tree: SessionsTree) => [...(await groupsOf(tree)).values()].flat();

/** Each group of past threads (by its id) with its rows. */
async function groupsOf(tree: SessionsTree): Promise<Map<string, PastNode[]>> {
  const groups = new Map<string, PastNode[]>();
  for (const g of await tree.getChildren())
    if (g.type === "group" && (g.id.startsWith("day:") || g.id.startsWith("month:")))
      groups.set(
        g.id,
        g.children.filter((n): n is PastNode => n.type === "past"),
      );
  return groups;
}

/** Every group a first paint showed holds the rows it holds once every row is in: whole, nothing out of date. */
function assertWhole(first: Map<string, PastNode[]>, all: Map<string, PastNode[]>): void {
  for (const [id, rows] of first)
    assert.deepEqual(
      rows.map((n) => [n.thread.threadId, n.thread.title]),
      all.get(id)?.map((n) => [n.thread.threadId, n.thread.title]),
      `the group ${id} as painted first`,
    );
}

/** Waits for the `total` rows (the index's are in), and checks each group painted first is as it is now. */
async function everyRow(tree: SessionsTree, firstGroups: Map<string, PastNode[]>, total: number) {
  const all = await waitFor("every row", async () => {
    const rows = await rowsOf(tree);
    return rows.length === total ? rows : undefined;
  });
  assert.equal(all.length, total);
  assertWhole(firstGroups, await groupsOf(tree));
  return all;
}

/** A home with `TOTAL` threads in its folder `ws`; `fn` runs with them, then the home goes. */
async function withHistory(
  fn: (store: ThreadStore, cwd: string, ids: string[]) => Promise<void>,
  mtime = false,
): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "acp-threads-first-paint-"));
  const cwd = join(home, "ws");
  mkdirSync(cwd);
  const store = new ThreadStore(home);
  try {
    await fn(store, cwd, writeHistory(store, cwd, TOTAL, mtime));
  } finally {
    // the worker may still be writing its last file
    await waitFor("the temporary home to go", () => {
      try {
        rmSync(home, { recursive: true, force: true });
        return true;
      } catch {
        return false;
      }
    });
  }
}

const FAKE = { id: "fake", name: "Fake agent", command: "/bin/true" };

/** The extension's catalog worker, as the editor runs it. */
const catalogWorker = () =>
  join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, "dist", "catalog-worker.js");

describe("the sessions view's first paint", () => {
  it(`paints the newest of ${TOTAL} threads from the first rows, the others after`, async () => {
    const { hub } = await api();
    await withHistory(async (store, cwd, ids) => {
      for (const from of ["the worker's first message", "the recent-threads file"]) {
        const past = new PastThreads(store, undefined, { catalogWorker: catalogWorker() });
        const tree = new SessionsTree(hub.live, (f) => past.list(f));
        tree.filter = { cwds: [cwd] };
        try {
          const allIn = new Promise<void>((resolve) => past.onDidChange(() => resolve()));
          const started = Date.now();
          const firstGroups = await groupsOf(tree);
          const first = [...firstGroups.values()].flat();
          const ms = Date.now() - started;
          console.log(`[figure] first paint from ${from}: ${first.length} of ${TOTAL} rows in ${ms} ms`);
          assert.equal(first[0]?.thread.threadId, ids[0], "the newest first");
          await allIn;
          const all = await everyRow(tree, firstGroups, TOTAL);
          if (from === "the recent-threads file") {
            // painted before the worker's rows (it starts after): the whole groups of the file's rows
            const newest = all.slice(0, RECENT_ROWS).map((n) => n.thread);
            const whole = wholeGroups(newest, (t) => t.updatedAt, newest.at(-1)!.updatedAt);
            assert.equal(first.length, whole.length, "the day groups the recent-threads file holds whole");
          }
        } finally {
          tree.dispose();
          past.dispose();
        }
      }
    });
  });

  it("paints from a recent-threads file the history moved past, with a filter, before the worker's rows: whole groups, nothing out of date", async () => {
    const { hub } = await api();
    await withHistory(async (store, cwd, ids) => {
      const warm = new PastThreads(store, undefined, { catalogWorker: catalogWorker() });
      await warm.catalog.list(); // its worker leaves the recent-threads file
      warm.dispose();
      // since: another window started a thread and renamed one (the folder and the change journal moved on)
      const other = new ThreadStore(store.home);
      const h = other.create({ agent: FAKE, mode: "acp", cwd, repoRoot: null, gitHead: null });
      h.patch({ title: "started since" });
      h.close();
      other.patchMetadata(ids[2]!, { title: "renamed since" });
      await paintHeld(hub, store, cwd, "from a stale recent-threads file, a filter", TOTAL + 1, (first) => {
        assert.equal(first[0]?.thread.threadId, h.threadId, "the thread started since, the newest");
        assert.equal(first.find((n) => n.thread.threadId === ids[2])?.thread.title, "renamed since");
      });
    });
  });

  it("paints a first run (no index, no recent-threads file) from the newest thread files, with a filter, before the worker's rows: whole groups, nothing out of date", async () => {
    const { hub } = await api();
    // an upgrade: the threads an earlier version wrote over time, no index, no recent-threads file
    await withHistory(
      (store, cwd, ids) =>
        paintHeld(hub, store, cwd, "of a first run, from the thread files", TOTAL, (first) =>
          assert.equal(first[0]?.thread.threadId, ids[0], "the newest first"),
        ),
      true,
    );
  });
});

/**
 * The tree's first paint (the workspace and agent filter) while the catalog's worker is held shut, so no row of
 * the index's can be in it; `check` looks at its rows; then every one of the `total` rows in, and each group
 * painted first as it is then.
 */
async function paintHeld(
  hub: Awaited<ReturnType<typeof api>>["hub"],
  store: ThreadStore,
  cwd: string,
  from: string,
  total: number,
  check: (first: PastNode[]) => void,
): Promise<void> {
  const gate = gatedWorker(store.home, catalogWorker());
  const past = new PastThreads(store, undefined, { catalogWorker: gate.script });
  const tree = new SessionsTree(hub.live, (f) => past.list(f));
  tree.filter = { cwds: [cwd], agent: FAKE.id };
  try {
    const allIn = new Promise<void>((resolve) => past.onDidChange(() => resolve()));
    const started = Date.now();
    const firstGroups = await groupsOf(tree); // the worker is held: no row of the index's yet
    const first = [...firstGroups.values()].flat();
    console.log(`[figure] first paint ${from}: ${first.length} rows in ${Date.now() - started} ms`);
    check(first);
    gate.openGate();
    await allIn;
    await everyRow(tree, firstGroups, total);
  } finally {
    gate.openGate(); // a worker still held would stay
    tree.dispose();
    past.dispose();
  }
}
