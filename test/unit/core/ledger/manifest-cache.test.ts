// The manifest cache's save (manifest-cache.ts), off the thread and coalesced per file: the last snapshot wins, a
// load while a save is pending takes that snapshot, a tracker's close (and the ledger's flush) waits for the last
// write, a failed write is a warning and the next save still writes; no tmp file is ever left. On the real disk.
import { test } from "node:test";
import assert from "node:assert/strict";
import fsp from "node:fs/promises";
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FileState } from "../../../../src/core/ledger/content";
import { loadManifestCache, saveManifestCache, type ManifestEntries } from "../../../../src/core/ledger/manifest-cache";
import type { Logger } from "../../../../src/core/log";
import { nullLogger } from "../../../../src/core/log";
import { homeLayout } from "../../../../src/core/platform/data-home";
import { withTmp } from "../store/helpers";
import { withLedger } from "./helpers";

const state = (n: number): FileState => ({ id: n.toString(16).padStart(40, "0"), size: n, stored: true });

/** A manifest of `count` files, each file's size (and state) `tag`. */
function manifest(tag: number, count = 3): ManifestEntries {
  const m: ManifestEntries = new Map();
  for (let i = 0; i < count; i++) m.set(`f${i}.txt`, { size: tag, mtimeMs: 1000 + i, ino: 10 + i, state: state(tag) });
  return m;
}

function warnings(): { logger: Logger; seen: string[] } {
  const seen: string[] = [];
  return { logger: { ...nullLogger, warn: (m: string) => void seen.push(m) }, seen };
}

/** The cache folder's entries: one `<hash>.json` per root, never a `.tmp-` file once the saves settled. */
const entriesOf = (dir: string) => readdirSync(dir).sort();

test("saves while one is written: the last snapshot wins, the one queued between is replaced", () =>
  withTmp(async (dir) => {
    const cache = join(dir, "cache");
    const first = saveManifestCache(cache, "/ws", manifest(1), nullLogger);
    const second = saveManifestCache(cache, "/ws", manifest(2), nullLogger);
    const third = saveManifestCache(cache, "/ws", manifest(3), nullLogger);
    assert.equal(second, third, "the second snapshot waits behind the first write and the third replaces it");
    // a load while the saves are pending takes the newest snapshot, not the file
    assert.equal((await loadManifestCache(cache, "/ws")).get("f0.txt")?.size, 3);
    await Promise.all([first, second, third]);
    const loaded = await loadManifestCache(cache, "/ws");
    assert.deepEqual([...loaded.keys()], ["f0.txt", "f1.txt", "f2.txt"]);
    assert.deepEqual(loaded.get("f1.txt"), { size: 3, mtimeMs: 1001, ino: 11, state: state(3) });
    assert.equal(entriesOf(cache).length, 1, `one file, no tmp: ${entriesOf(cache)}`);
    assert.match(entriesOf(cache)[0]!, /^[0-9a-f]{16}\.json$/);
    // a later save (nothing in flight) writes again
    await saveManifestCache(cache, "/ws", manifest(4, 1), nullLogger);
    assert.deepEqual([...(await loadManifestCache(cache, "/ws")).keys()], ["f0.txt"]);
  }));

test("two roots are two files, saved side by side; a root never loads another's rows", () =>
  withTmp(async (dir) => {
    const cache = join(dir, "cache");
    await Promise.all([
      saveManifestCache(cache, "/a", manifest(1), nullLogger),
      saveManifestCache(cache, "/b", manifest(2, 1), nullLogger),
    ]);
    assert.equal((await loadManifestCache(cache, "/a")).size, 3);
    assert.equal((await loadManifestCache(cache, "/b")).size, 1);
    assert.equal((await loadManifestCache(cache, "/c")).size, 0);
    assert.equal(entriesOf(cache).length, 2);
  }));

test("a failed write is a warning, leaves no tmp file, and the next save still writes", () =>
  withTmp(async (dir) => {
    const cache = join(dir, "cache");
    const { logger, seen } = warnings();
    // the cache file's path taken by a non-empty folder: the tmp file is written, its rename fails
    await saveManifestCache(cache, "/ws", manifest(1), nullLogger);
    const [file] = entriesOf(cache);
    rmSync(join(cache, file!));
    mkdirSync(join(cache, file!));
    writeFileSync(join(cache, file!, "keep"), "a folder where the cache file goes\n");
    await saveManifestCache(cache, "/ws", manifest(2), logger);
    assert.equal(seen.length, 1);
    assert.match(seen[0]!, /could not save the manifest cache for \/ws/);
    assert.deepEqual(entriesOf(cache), [file], "the failed write's tmp file is gone");
    // the obstacle gone, the next save writes (the writer is not stuck on the failure)
    rmSync(join(cache, file!), { recursive: true });
    await saveManifestCache(cache, "/ws", manifest(3), logger);
    assert.equal((await loadManifestCache(cache, "/ws")).get("f0.txt")?.size, 3);
    assert.equal(seen.length, 1);
    assert.deepEqual(entriesOf(cache), [file]);
  }));

test("a bad cache file loads as none (the workspace is read again), never as an error", () =>
  withTmp(async (dir) => {
    const cache = join(dir, "cache");
    await saveManifestCache(cache, "/ws", manifest(1), nullLogger);
    const [file] = entriesOf(cache);
    const v1 = JSON.stringify({ v: 1, root: "/ws", rows: [["ok", 1, 2, 3, state(1)]] }); // an older version's
    for (const bad of ["{not json", JSON.stringify({ v: 99, root: "/ws" }), JSON.stringify({ v: 2 }), v1]) {
      writeFileSync(join(cache, file!), bad);
      assert.equal((await loadManifestCache(cache, "/ws")).size, 0);
    }
    // a row that does not parse is skipped, the others are kept
    const rows = [["ok", 1, 2, 3, state(1)], ["bad"]].map((r) => JSON.stringify(r));
    writeFileSync(join(cache, file!), [JSON.stringify({ v: 2, root: "/ws" }), ...rows, "{torn", ""].join("\n"));
    assert.deepEqual([...(await loadManifestCache(cache, "/ws")).keys()], ["ok"]);
  }));

test("a plain folder's last session ends: the ledger's flush waits for the manifest, written whole, no tmp", () =>
  withLedger(
    async (ws, ledger) => {
      const hourAgo = new Date(Date.now() - 3600_000);
      for (const n of ["a.txt", "b.txt"]) {
        writeFileSync(join(ws, n), `${n}\n`);
        utimesSync(join(ws, n), hourAgo, hourAgo);
      }
      const home = join(ws, "..", "home");
      const cache = homeLayout(home).ledgerManifestsDir;
      const session = ledger.openSession("0196a000-0000-7000-8000-00000000000a", ws);
      (await ledger.prepare(ws)).dispose(); // the baseline is built; the session still holds the folder
      session.dispose(); // the folder's last user: its tracker closes and hands its manifest to the writer
      await ledger.flush();
      assert.equal(entriesOf(cache).length, 1, `one manifest, no tmp: ${entriesOf(cache)}`);
      const saved = await loadManifestCache(cache, realpathSync(ws));
      assert.deepEqual([...saved.keys()].sort(), ["a.txt", "b.txt"]);
    },
    { watch: false, walkWorker: false },
  ));

test("a big folder's manifest is written a chunk and read a slice at a time: the event loop turns between them", () =>
  withTmp(async (dir) => {
    const cache = join(dir, "cache");
    const big = manifest(7, 10_000);
    // a turn counter, read at each write to the tmp file and at each read of the cache file
    let turns = 0;
    let live = true;
    const spin = () => {
      if (!live) return;
      turns++;
      setImmediate(spin);
    };
    const table = fsp as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    const saved = { open: table.open!, readFile: table.readFile! };
    const writes: { turn: number; bytes: number }[] = [];
    const reads: number[] = [];
    table.open = async (...a) => {
      const fh = (await saved.open(...a)) as fsp.FileHandle;
      const { write, read } = fh;
      fh.write = ((...w: Parameters<typeof write>) => (
        writes.push({ turn: turns, bytes: Buffer.byteLength(w[0] as string) }),
        write.apply(fh, w)
      )) as typeof write;
      fh.read = ((...r: Parameters<typeof read>) => (reads.push(turns), read.apply(fh, r))) as typeof read;
      return fh;
    };
    table.readFile = () => Promise.reject(new Error("the cache is never read whole"));
    spin();
    try {
      await saveManifestCache(cache, "/ws", big, nullLogger);
      const total = writes.reduce((n, w) => n + w.bytes, 0);
      assert.ok(writes.length >= 5, `written in parts (${writes.length} writes)`);
      assert.ok(Math.max(...writes.map((w) => w.bytes)) < total / 4, "no part is the whole file");
      for (let i = 1; i < writes.length; i++)
        assert.ok(writes[i]!.turn > writes[i - 1]!.turn, `the event loop turned between writes ${i - 1} and ${i}`);
      const loaded = await loadManifestCache(cache, "/ws");
      assert.ok(reads.length >= 4, `read in slices (${reads.length} reads)`);
      for (let i = 1; i < reads.length; i++)
        assert.ok(reads[i]! > reads[i - 1]!, `the event loop turned between reads ${i - 1} and ${i}`);
      assert.deepEqual(loaded, big, "every row back as saved");
    } finally {
      live = false;
      Object.assign(table, saved);
    }
  }));

test("a corrupt line in the middle of a slice's batch is skipped, every other row of the batch is kept", () =>
  withTmp(async (dir) => {
    const cache = join(dir, "cache");
    const big = manifest(3, 3_000);
    await saveManifestCache(cache, "/ws", big, nullLogger);
    const [file] = entriesOf(cache);
    const lines = readFileSync(join(cache, file!), "utf8").split("\n");
    // rows 1100 and 1101, mid-batch (1000-1199) in the first slice: one cut short, one two rows glued with a comma
    // (not JSON alone, JSON once the batch is joined: the batch's count tells)
    lines[1101] = lines[1101]!.slice(0, 20);
    lines[1102] = `${lines[1102]},${lines[1102]}`;
    writeFileSync(join(cache, file!), lines.join("\n"));
    const loaded = await loadManifestCache(cache, "/ws");
    const lost = [...big.keys()].filter((k) => !loaded.has(k));
    assert.deepEqual(lost, ["f1100.txt", "f1101.txt"], "only the two bad lines' rows are missing");
    for (const [k, v] of loaded) assert.deepEqual(v, big.get(k));
  }));
