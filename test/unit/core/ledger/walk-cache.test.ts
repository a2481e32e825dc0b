// WalkCache (#36 item 6): the walk worker's walks reuse a folder's listing while its stamps hold, and still see
// every edit, creation, deletion and rename — an edit deep inside folders whose stamps never changed included —
// and a changed .gitignore at once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RACY_MS, trustsFolders, WalkCache } from "../../../../src/core/ledger/walk-cache";
import type { WalkDelta } from "../../../../src/core/ledger/walk";
import { withTmp } from "../store/helpers";

const DEEP = "src/a/b/c/d";

/** A workspace whose folders were last changed an hour ago (so their listings are reused). */
function seed(ws: string): void {
  mkdirSync(join(ws, DEEP), { recursive: true });
  writeFileSync(join(ws, ".gitignore"), "*.log\n");
  writeFileSync(join(ws, DEEP, "deep.ts"), "export const deep = 1;\n");
  writeFileSync(join(ws, "src/top.ts"), "export const top = 1;\n");
  writeFileSync(join(ws, "src/a/old.ts"), "old\n");
  backdate(ws);
}

function backdate(ws: string): void {
  const hourAgo = new Date(Date.now() - 3600_000);
  for (const d of ["", "src", "src/a", "src/a/b", "src/a/b/c", DEEP]) utimesSync(join(ws, d), hourAgo, hourAgo);
}

/** A seeded workspace's cache after two walks (the second one reuses every listing it may). */
function walkedTwice(ws: string, trustFolders: boolean): WalkCache {
  seed(ws);
  const cache = new WalkCache(ws, { top: ws, prefix: "", trustFolders });
  cache.walk(1000, true);
  cache.walk(1000, true);
  return cache;
}

const summary = (w: WalkDelta) => ({ full: w.full, changed: [...w.changed.keys()].sort(), removed: w.removed.sort() });

test("an unchanged workspace: the second walk reports nothing, and reused the folders' listings", async () => {
  await withTmp((ws) => {
    seed(ws);
    const cache = new WalkCache(ws, { top: ws, prefix: "", trustFolders: true });
    const first = cache.walk(1000, true);
    assert.deepEqual(summary(first), {
      full: true,
      changed: [".gitignore", `${DEEP}/deep.ts`, "src/a/old.ts", "src/top.ts"],
      removed: [],
    });
    assert.equal(cache.foldersRead, 6);
    assert.deepEqual(summary(cache.walk(1000, true)), { full: false, changed: [], removed: [] });
    assert.equal(cache.foldersRead, 0);
    // without `diff`, every listed file again
    assert.equal(cache.walk(1000, false).changed.size, 4);
  });
});

test("edits, a creation, a deletion and a rename are all seen; an edit deep in unchanged folders too", async () => {
  await withTmp((ws) => {
    const cache = walkedTwice(ws, true);
    // an edit changes no folder's stamps (every listing is reused): the file's own stat shows it
    writeFileSync(join(ws, DEEP, "deep.ts"), "export const deep = 22;\n");
    assert.deepEqual(summary(cache.walk(1000, true)), { full: false, changed: [`${DEEP}/deep.ts`], removed: [] });
    assert.equal(cache.foldersRead, 0);
    writeFileSync(join(ws, "src/a/b/new.ts"), "new\n");
    rmSync(join(ws, "src/top.ts"));
    renameSync(join(ws, "src/a/old.ts"), join(ws, DEEP, "moved.ts"));
    assert.deepEqual(summary(cache.walk(1000, true)), {
      full: false,
      changed: [`${DEEP}/moved.ts`, "src/a/b/new.ts"],
      removed: ["src/a/old.ts", "src/top.ts"],
    });
    // the same again with the folders' times set back: their ctimes still changed
    writeFileSync(join(ws, DEEP, "later.ts"), "later\n");
    backdate(ws);
    assert.deepEqual(summary(cache.walk(1000, true)).changed, [`${DEEP}/later.ts`]);
  });
});

test("a folder changed within RACY_MS of its reading is listed again at every walk until it is older", async () => {
  await withTmp((ws) => {
    seed(ws);
    const fresh = join(ws, "src/fresh");
    mkdirSync(fresh);
    backdate(ws);
    const now = new Date();
    utimesSync(fresh, now, now); // a creation in the same timestamp tick would leave this mtime as it is
    const cache = new WalkCache(ws, { top: ws, prefix: "", trustFolders: true });
    cache.walk(1000, true);
    assert.equal(cache.foldersRead, 7);
    assert.deepEqual(summary(cache.walk(1000, true)).changed, []);
    assert.equal(cache.foldersRead, 1, "the fresh folder only");
    const past = new Date(Date.now() - RACY_MS - 1000);
    utimesSync(fresh, past, past);
    cache.walk(1000, true);
    cache.walk(1000, true);
    assert.equal(cache.foldersRead, 0);
  });
});

test("a changed .gitignore re-decides at once: newly ignored files are no longer listed, un-ignored ones are", async () => {
  await withTmp((ws) => {
    seed(ws);
    writeFileSync(join(ws, DEEP, "trace.log"), "log\n");
    backdate(ws);
    const cache = new WalkCache(ws, { top: ws, prefix: "", trustFolders: true });
    assert.ok(!cache.walk(1000, true).changed.has(`${DEEP}/trace.log`));
    writeFileSync(join(ws, ".gitignore"), "src/a/b/\n");
    backdate(ws);
    const w = summary(cache.walk(1000, true));
    assert.deepEqual(w.removed, [`${DEEP}/deep.ts`]);
    assert.deepEqual(w.changed, [".gitignore"]);
    // a .gitignore deep in an unchanged tree, edited in place: its folder's stamps do not move
    writeFileSync(join(ws, ".gitignore"), "");
    writeFileSync(join(ws, DEEP, ".gitignore"), "deep.ts\n");
    backdate(ws);
    cache.walk(1000, true);
    writeFileSync(join(ws, DEEP, ".gitignore"), "other.ts\n");
    assert.equal(cache.walk(1000, true).changed.has(`${DEEP}/deep.ts`), true);
  });
});

test("a workspace below the repository's top: a parent folder's .gitignore edit counts at once", async () => {
  await withTmp((top) => {
    const ws = join(top, "pkg");
    mkdirSync(ws);
    seed(ws);
    writeFileSync(join(top, ".gitignore"), "");
    const cache = new WalkCache(ws, { top, prefix: "pkg", trustFolders: true });
    assert.ok(cache.walk(1000, true).changed.has("src/top.ts"));
    writeFileSync(join(top, ".gitignore"), "top.ts\n");
    assert.deepEqual(summary(cache.walk(1000, true)).removed, ["src/top.ts"]);
  });
});

test("without trusted folders every folder is listed at every walk; only Linux file systems are trusted", async () => {
  await withTmp((ws) => {
    const cache = walkedTwice(ws, false);
    assert.equal(cache.foldersRead, 6);
    assert.equal(trustsFolders(ws, "darwin"), false);
    assert.equal(trustsFolders(ws, "win32"), false);
    assert.equal(trustsFolders(join(ws, "no-such-folder"), "linux"), false);
  });
});

test("a walk past maxFiles is truncated and the next one is whole again", async () => {
  await withTmp((ws) => {
    seed(ws);
    const cache = new WalkCache(ws, { top: ws, prefix: "", trustFolders: true });
    const w = cache.walk(2, true);
    assert.equal(w.truncated, true);
    assert.equal(cache.walk(1000, true).full, true);
  });
});

test("dirs(): every folder the rules let through, empty ones too, never an ignored one or a link; the next walk is unchanged", async () => {
  await withTmp(async (ws) => {
    seed(ws);
    writeFileSync(join(ws, ".gitignore"), "*.log\nbuild/\n");
    mkdirSync(join(ws, "empty/inner"), { recursive: true });
    mkdirSync(join(ws, "build/sub"), { recursive: true });
    symlinkSync(join(ws, "src"), join(ws, "link"), "dir");
    const cache = new WalkCache(ws, { top: ws, prefix: "" });
    const first = cache.walk(1000, true);
    assert.deepEqual(cache.dirs().sort(), ["", "empty", "empty/inner", "src", "src/a", "src/a/b", "src/a/b/c", DEEP]);
    assert.deepEqual(first.dirs?.sort(), cache.dirs().sort());
    assert.deepEqual(summary(cache.walk(1000, true)), { full: false, changed: [], removed: [] });
  });
});
