// What a tracker's turns start from, on its own (tracker-baseline.ts): a git repository's clean files known from
// the index (not read) with the walk's stat adopted, a plain folder's files read or taken from the manifest cache,
// the mode the watches allow (all, some, none), and "off" past the file limit. On the real disk.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BlobStore } from "../../../../src/core/ledger/blob-store";
import { DEFAULT_LIMITS } from "../../../../src/core/ledger/content";
import { KnownFiles } from "../../../../src/core/ledger/known-files";
import { saveManifestCache } from "../../../../src/core/ledger/manifest-cache";
import { buildBaseline, type BaselineOptions } from "../../../../src/core/ledger/tracker-baseline";
import { nullLogger } from "../../../../src/core/log";
import { withTmp } from "../store/helpers";
import { g } from "../worktree/helpers";

function workspace(dir: string): string {
  const ws = join(dir, "ws");
  for (const d of ["a", "b/c"]) mkdirSync(join(ws, d), { recursive: true });
  const hourAgo = new Date(Date.now() - 3600_000);
  for (const rel of ["one.txt", "a/two.txt", "b/c/three.txt"]) {
    writeFileSync(join(ws, rel), `${rel}\n`);
    utimesSync(join(ws, rel), hourAgo, hourAgo); // not racy: a manifest row may be taken
  }
  return ws;
}

function options(dir: string, extra: Partial<BaselineOptions> = {}): BaselineOptions {
  const blobs = new BlobStore(join(dir, "blobs"));
  return {
    blobs,
    limits: DEFAULT_LIMITS,
    watch: false,
    cacheDir: join(dir, "cache"),
    walker: undefined,
    logger: nullLogger,
    ...extra,
  };
}

test("git repository, stat walks: clean files are known from the index, with the walk's stat; a modified one is read", () =>
  withTmp(async (dir) => {
    const ws = workspace(dir);
    g(ws, "init", "-q");
    g(ws, "add", "-A");
    g(ws, "commit", "-qm", "init");
    writeFileSync(join(ws, "one.txt"), "modified\n");
    const opts = options(dir);
    const files = new KnownFiles(ws, opts.blobs, DEFAULT_LIMITS.maxFileBytes);
    const b = await buildBaseline(ws, opts, files);
    assert.equal(b.mode, "walk");
    assert.equal(b.watcher, undefined);
    assert.ok(b.gitTop);
    assert.equal(b.prefix, "");
    assert.deepEqual([...files.keys()].sort(), ["a/two.txt", "b/c/three.txt", "one.txt"]);
    const clean = files.get("a/two.txt")!;
    assert.equal(clean.inGit, true);
    assert.equal(clean.state.stored, false, "not read: its content stays in git");
    assert.ok(clean.ino > 0 && clean.size === "a/two.txt\n".length, "the walk's stat adopted");
    assert.equal(files.get("one.txt")!.state.stored, true, "modified: read and kept");
    b.walks.forget();
  }));

test("plain folder: every file read; the next baseline takes a matching manifest row instead of reading", () =>
  withTmp(async (dir) => {
    const ws = workspace(dir);
    const opts = options(dir);
    const files = new KnownFiles(ws, opts.blobs, DEFAULT_LIMITS.maxFileBytes);
    const b = await buildBaseline(ws, opts, files);
    assert.equal(b.mode, "walk");
    assert.equal(b.gitTop, undefined);
    assert.equal(files.size, 3);
    // a row whose stat matches the file is taken as it is (a made-up id shows it was not read); a stale one is not
    const made = { id: "f".repeat(40), size: 1, stored: false };
    const two = { ...files.get("a/two.txt")!, state: made };
    const one = { ...files.get("one.txt")!, mtimeMs: files.get("one.txt")!.mtimeMs - 1000, state: made };
    await saveManifestCache(
      opts.cacheDir!,
      ws,
      new Map([
        ["a/two.txt", two],
        ["one.txt", one],
      ]),
      nullLogger,
    );
    const again = new KnownFiles(ws, opts.blobs, DEFAULT_LIMITS.maxFileBytes);
    (await buildBaseline(ws, opts, again)).walks.forget();
    assert.deepEqual(again.get("a/two.txt")!.state, made, "a matching row: taken");
    assert.deepEqual(again.get("one.txt")!.state, files.get("one.txt")!.state, "a stale row: read again");
    b.walks.forget();
  }));

test("the mode the watches allow: all granted, some (the rest walked), or past the file limit: off", () =>
  withTmp(async (dir) => {
    const ws = workspace(dir);
    const all = await buildBaseline(ws, options(dir, { watch: true }), new KnownFiles(ws, options(dir).blobs, 1e6));
    assert.equal(all.mode, "watch");
    assert.deepEqual(all.watcher!.unwatched, []);
    all.watcher!.dispose();
    // sorted, parents first: "" and "a" are watched, "b" (with "b/c") is walked
    const some = await buildBaseline(ws, options(dir, { watch: 2 }), new KnownFiles(ws, options(dir).blobs, 1e6));
    assert.equal(some.mode, "watch");
    assert.deepEqual(some.watcher!.unwatched, ["b"]);
    some.watcher!.dispose();
    const files = new KnownFiles(ws, options(dir).blobs, 1e6);
    const off = await buildBaseline(ws, options(dir, { limits: { ...DEFAULT_LIMITS, maxFiles: 2 } }), files);
    assert.equal(off.mode, "off");
    assert.match(off.offReason!, /exceed the ledger's limit of 2/);
    assert.equal(files.size, 0);
  }));
