/**
 * The Sessions view's first paint at history scale (#36), in the real extension host with the real catalog
 * worker: the tree's first listing paints the newest threads from the first rows that arrive (the recent-threads
 * file the worker left, else the worker's first message) before the others, which come with a change event.
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
import { writeRawThreads } from "../../fixtures/threads/raw-threads";
import { api, EXTENSION_ID, waitFor } from "./helpers";

const TOTAL = 2000;

/** `n` threads in `cwd`, one every 10 minutes back from now, as files an earlier run left; the folder settled. */
function writeHistory(store: ThreadStore, cwd: string, n: number): string[] {
  const ids = writeRawThreads(store, n, cwd, { stepMs: 600_000, title: (i) => `history ${i}` });
  const settled = new Date(Date.now() - 60_000);
  utimesSync(store.threadsDir, settled, settled);
  return ids;
}

/** The past threads' rows of every group (live sessions of other tests aside). */
const rowsOf = async (tree: SessionsTree) =>
  (await tree.getChildren())
    .flatMap((g: SessionNode) => (g.type === "group" ? g.children : []))
    .filter((n) => n.type === "past");

describe("the sessions view's first paint", () => {
  it(`paints the newest of ${TOTAL} threads from the first rows, the others after`, async () => {
    const { hub } = await api();
    const worker = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, "dist", "catalog-worker.js");
    const home = mkdtempSync(join(tmpdir(), "acp-threads-first-paint-"));
    const cwd = join(home, "ws");
    mkdirSync(cwd);
    const store = new ThreadStore(home);
    const ids = writeHistory(store, cwd, TOTAL);
    try {
      for (const from of ["the worker's first message", "the recent-threads file"]) {
        const past = new PastThreads(store, undefined, { catalogWorker: worker });
        const tree = new SessionsTree(hub.live, (f) => past.list(f));
        tree.filter = { cwds: [cwd] };
        try {
          const allIn = new Promise<void>((resolve) => past.onDidChange(() => resolve()));
          const started = Date.now();
          const first = await rowsOf(tree);
          const ms = Date.now() - started;
          console.log(`[figure] first paint from ${from}: ${first.length} of ${TOTAL} rows in ${ms} ms`);
          assert.equal(first[0]?.type === "past" && first[0].thread.threadId, ids[0], "the newest first");
          if (from === "the recent-threads file")
            assert.equal(first.length, RECENT_ROWS, "painted before the worker's rows (it starts after)");
          else assert.ok(first.length <= TOTAL);
          await allIn;
          const all = await waitFor("every row", async () => {
            const rows = await rowsOf(tree);
            return rows.length === TOTAL ? rows : undefined;
          });
          assert.equal(all.length, TOTAL);
        } finally {
          tree.dispose();
          past.dispose();
        }
      }
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
  });
});
