// The tracker's file table on its own (known-files.ts): a look reads a file only when its stat changed or it is
// racy, reports a delta only when its content changed, keeps the version read; a look with `since` leaves a file
// changed after the turn's start as it was known; a folder gone takes its files with it. On the real disk.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lstatSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BlobStore } from "../../../../src/core/ledger/blob-store";
import { KnownFiles, type FileDelta } from "../../../../src/core/ledger/known-files";
import { SinceTurn } from "../../../../src/core/ledger/since-turn";
import { TurnClock } from "../../../../src/core/ledger/turn-clock";
import { statInfo } from "../../../../src/core/ledger/walk";
import { withTmp } from "../store/helpers";

const hourAgo = () => new Date(Date.now() - 3600_000);

/** A workspace with `a.txt` and `d/b.txt`, an hour old (not racy), and its table after the baseline's reads. */
async function seeded(dir: string): Promise<{ ws: string; blobs: BlobStore; files: KnownFiles }> {
  const ws = join(dir, "ws");
  mkdirSync(join(ws, "d"), { recursive: true });
  for (const rel of ["a.txt", "d/b.txt"]) {
    writeFileSync(join(ws, rel), `${rel} before\n`);
    utimesSync(join(ws, rel), hourAgo(), hourAgo());
  }
  const blobs = new BlobStore(join(dir, "blobs"));
  const files = new KnownFiles(ws, blobs, 1000);
  await files.readAll(["a.txt", "d/b.txt", "missing.txt", "d"]);
  return { ws, blobs, files };
}

test("the baseline's reads know each file that is one, keep its content, and leave none racy when old", () =>
  withTmp(async (dir) => {
    const { blobs, files } = await seeded(dir);
    assert.deepEqual([...files.keys()].sort(), ["a.txt", "d/b.txt"]);
    assert.equal(blobs.getText(files.get("a.txt")!.state.id!), "a.txt before\n");
    assert.deepEqual([...files.racy.paths()], []);
  }));

test("a look reads only a changed stat, and reports a delta only for changed content", () =>
  withTmp(async (dir) => {
    const { ws, blobs, files } = await seeded(dir);
    const deltas: FileDelta[] = [];
    const prev = files.get("a.txt")!;
    assert.equal(await files.update("a.txt", lstatSync(join(ws, "a.txt")), prev, deltas), true);
    assert.equal(deltas.length, 0, "the same stat: not read");
    // the same content, a new mtime: read, no delta
    utimesSync(join(ws, "a.txt"), new Date(), new Date());
    await files.update("a.txt", lstatSync(join(ws, "a.txt")), prev, deltas);
    assert.equal(deltas.length, 0);
    assert.equal(files.racy.has("a.txt"), true, "stamped just after its change: racy");
    writeFileSync(join(ws, "a.txt"), "a.txt after\n");
    await files.update("a.txt", lstatSync(join(ws, "a.txt")), files.get("a.txt"), deltas);
    assert.deepEqual(
      deltas.map((d) => d.rel),
      ["a.txt"],
    );
    assert.equal(blobs.getText(deltas[0]!.before!.id!), "a.txt before\n");
    assert.equal(blobs.getText(deltas[0]!.after!.id!), "a.txt after\n");
  }));

test("a racy file is read again with its stat unchanged: a same-size rewrite in the same tick is a delta", () =>
  withTmp(async (dir) => {
    const { ws, files } = await seeded(dir);
    const at = new Date();
    writeFileSync(join(ws, "a.txt"), "a.txt AFTER1\n");
    utimesSync(join(ws, "a.txt"), at, at);
    const deltas: FileDelta[] = [];
    await files.update("a.txt", lstatSync(join(ws, "a.txt")), files.get("a.txt"), deltas);
    assert.equal(files.racy.has("a.txt"), true);
    writeFileSync(join(ws, "a.txt"), "a.txt AFTER2\n");
    utimesSync(join(ws, "a.txt"), at, at);
    const st = lstatSync(join(ws, "a.txt"));
    const known = files.get("a.txt")!;
    assert.deepEqual(
      statInfo(st),
      { size: known.size, mtimeMs: known.mtimeMs, ino: known.ino },
      "the stat shows nothing",
    );
    await files.update("a.txt", st, files.get("a.txt"), deltas);
    assert.deepEqual(
      deltas.map((d) => d.rel),
      ["a.txt", "a.txt"],
    );
  }));

test("with `since`, a file changed after the turn's start is left as it was known (false), no delta", () =>
  withTmp(async (dir) => {
    const { ws, files } = await seeded(dir);
    mkdirSync(join(dir, "clock"));
    const clock = await TurnClock.open(ws, join(dir, "clock"));
    assert.ok(clock, "the workspace's clock can be read here");
    writeFileSync(join(ws, "a.txt"), "the user's edit before the turn\n");
    const since = await clock.now();
    assert.notEqual(since, undefined);
    const prev = files.get("a.txt")!;
    const stale = lstatSync(join(ws, "a.txt")); // the walk's stat: the user's edit
    writeFileSync(join(ws, "a.txt"), "the agent's, between the stat and the read\n");
    const deltas: FileDelta[] = [];
    assert.equal(await files.update("a.txt", stale, prev, deltas, new SinceTurn(ws, since!)), false);
    assert.equal(deltas.length, 0);
    assert.equal(files.get("a.txt"), prev, "still the version known before");
  }));

test("gone: a file's entry goes with a delta; a folder's takes every file below it", () =>
  withTmp(async (dir) => {
    const { files } = await seeded(dir);
    const deltas: FileDelta[] = [];
    files.gone("nothing.txt", deltas);
    files.gone("d", deltas); // not a watched folder: only its own entry (none)
    assert.equal(deltas.length, 0);
    files.gone("d", deltas, true);
    files.gone("a.txt", deltas);
    assert.deepEqual(
      deltas.map((d) => [d.rel, d.after]),
      [
        ["d/b.txt", null],
        ["a.txt", null],
      ],
    );
    assert.equal(files.size, 0);
  }));

test("adoptStat: a file known from git's index only takes the walk's stat; a read one keeps its own", () =>
  withTmp(async (dir) => {
    const { files } = await seeded(dir);
    files.set("g.txt", {
      size: -1,
      mtimeMs: -1,
      ino: -1,
      inGit: true,
      state: { id: "1".repeat(40), size: -1, stored: false },
    });
    const st = { size: 5, mtimeMs: 1234, ino: 42 };
    files.adoptStat("g.txt", st);
    files.adoptStat("a.txt", st);
    assert.deepEqual({ ...files.get("g.txt"), state: undefined }, { ...st, inGit: true, state: undefined });
    assert.equal(files.get("g.txt")!.state.size, 5);
    assert.notEqual(files.get("a.txt")!.ino, 42);
    assert.equal(files.racy.has("g.txt"), false);
  }));
