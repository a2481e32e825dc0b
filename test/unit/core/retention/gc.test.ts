// Retention against real files in a temp data home: what a deleted thread leaves (traffic, assets, ledger and the
// blobs only it referred to) goes once the trash is purged; traffic of gone threads and over its cap goes; the
// audit log rotates; "Clear data" keeps a thread a live writer holds; `acp-threads gc --dry-run` removes nothing.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { main as gcMain } from "../../../../src/cli/commands/gc";
import { BlobStore } from "../../../../src/core/ledger/blob-store";
import { clearData } from "../../../../src/core/retention/clear";
import { applyGc, planGc } from "../../../../src/core/retention/gc";
import { measureHome } from "../../../../src/core/retention/measure";
import { writeHomeSettings } from "../../../../src/core/store/home-settings";
import { assetsDir } from "../../../../src/core/store/paths";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { runCommand } from "../../cli/in-process";
import { startInput, withTmp } from "../store/helpers";

const OLD = Date.now() / 1000 - 90 * 24 * 3600;

async function seed(home: string, cwd: string) {
  const store = new ThreadStore(home);
  const make = (title: string) => {
    const h = store.create(startInput(cwd, { title }));
    h.close();
    return h.threadId;
  };
  const [gone, kept] = [make("gone"), make("kept")];
  const blobs = new BlobStore(join(home, "ledger", "blobs"));
  const shared = await blobs.put(Buffer.from("shared\n"));
  const only = await blobs.put(Buffer.from("only the gone thread\n"));
  const ledger = (id: string, ids: string[]) =>
    writeFileSync(
      join(home, "ledger", `${id}.jsonl`),
      ids
        .map((b) =>
          JSON.stringify({
            v: 1,
            ts: "t",
            kind: "change",
            op: "o",
            path: "/x",
            before: null,
            after: { id: b, size: 1, stored: true },
            via: "disk",
          }),
        )
        .join("\n") + "\n",
    );
  ledger(gone, [shared, only]);
  ledger(kept, [shared]);
  const traffic = join(home, "traffic");
  mkdirSync(traffic, { recursive: true });
  for (const id of [gone, kept]) writeFileSync(join(traffic, `${id}.ndjson`), "x".repeat(1000) + "\n");
  writeFileSync(join(traffic, `${gone}.1.ndjson`), "y".repeat(500) + "\n");
  mkdirSync(assetsDir(store.threadsDir, gone));
  writeFileSync(join(assetsDir(store.threadsDir, gone), "a.png"), "png");
  for (const p of [blobs.pathOf(shared), blobs.pathOf(only)]) utimesSync(p, OLD, OLD);
  return { store, gone, kept, blobs, shared, only };
}

test("a purged thread takes its traffic, assets, ledger and the blobs only it referred to", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const { store, gone, kept, blobs, shared, only } = await seed(home, dir);
    store.delete(gone);
    // in the trash it is restorable: nothing of it is collected
    assert.deepEqual((await planGc(home)).items, []);
    utimesSync(store.trashPathFor(gone), OLD, OLD);
    const plan = await planGc(home);
    const paths = plan.items.map((i) => i.path).sort();
    assert.deepEqual(
      paths,
      [
        store.trashPathFor(gone),
        assetsDir(store.layout.trashDir, gone),
        join(home, "traffic", `${gone}.ndjson`),
        join(home, "traffic", `${gone}.1.ndjson`),
        join(home, "ledger", `${gone}.jsonl`),
        blobs.pathOf(only),
      ].sort(),
    );
    assert.equal(
      plan.bytes,
      plan.items.reduce((n, i) => n + i.bytes, 0),
    );
    assert.ok(plan.items.find((i) => i.path.endsWith(`${gone}.ndjson`))!.bytes === 1001);
    const done = await applyGc(plan);
    assert.equal(done.bytes, plan.bytes);
    assert.deepEqual(done.failed, []);
    for (const p of paths) assert.equal(existsSync(p), false, p);
    assert.ok(blobs.get(shared), "a blob another thread refers to stays");
    assert.ok(store.exists(kept) && existsSync(join(home, "traffic", `${kept}.ndjson`)));
    assert.deepEqual((await planGc(home)).items, [], "a second pass finds nothing");
  }));

test("traffic of threads that are gone, and over the cap oldest first; the audit log rotates", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const { store, kept, gone } = await seed(home, dir);
    const orphan = "01a00000-0000-7000-8000-000000000000";
    const t = (id: string) => join(home, "traffic", `${id}.ndjson`);
    writeFileSync(t(orphan), "z\n");
    // the kept thread's traffic is the oldest, then the gone one's rotated part, then its current file
    utimesSync(t(kept), OLD, OLD);
    utimesSync(join(home, "traffic", `${gone}.1.ndjson`), OLD + 10, OLD + 10);
    utimesSync(t(gone), OLD + 20, OLD + 20);
    const plan = await planGc(home, { trafficMaxBytes: 1600 });
    const traffic = plan.items.filter((i) => i.category === "traffic").map((i) => [i.path, i.reason]);
    assert.deepEqual(traffic, [
      [t(orphan), "its thread is gone"],
      [t(kept), "traffic over its cap of 1.6 KB (oldest first)"],
    ]);
    // a thread a live writer holds keeps its traffic whatever its age
    const h = store.open(kept);
    try {
      const held = await planGc(home, { trafficMaxBytes: 1600 });
      assert.deepEqual(
        held.items.filter((i) => i.category === "traffic").map((i) => i.path),
        [t(orphan), join(home, "traffic", `${gone}.1.ndjson`), t(gone)],
      );
    } finally {
      h.close();
    }
    writeFileSync(join(home, "audit.jsonl"), "a".repeat(2000));
    const audit = (await planGc(home, { auditMaxBytes: 1000 })).items.filter((i) => i.category === "audit");
    assert.equal(audit.length, 1);
    await applyGc({ items: audit, bytes: 0 });
    assert.equal(readFileSync(join(home, "audit.1.jsonl"), "utf8").length, 2000);
    assert.equal(existsSync(join(home, "audit.jsonl")), false);
  }));

test("Clear data measures each category and keeps a thread a live writer holds", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const { store, gone, kept, blobs, shared, only } = await seed(home, dir);
    const before = Object.fromEntries((await measureHome(home)).map((c) => [c.category, c]));
    assert.equal(before.traffic!.bytes, 1001 * 2 + 501);
    assert.equal(before.traffic!.files, 3);
    assert.ok(before.threads!.files >= 3 && before.ledger!.files === 4);
    const h = store.open(kept);
    let res;
    try {
      res = await clearData(home, ["threads", "traffic"]);
    } finally {
      h.close();
    }
    assert.deepEqual(res.keptLive, [kept]);
    assert.deepEqual(res.failed, []);
    assert.equal(store.exists(gone), false);
    assert.equal(store.exists(kept), true);
    assert.equal(existsSync(join(home, "traffic", `${kept}.ndjson`)), true);
    assert.equal(existsSync(join(home, "ledger", `${gone}.jsonl`)), false, "the gone thread's ledger went with it");
    assert.equal(blobs.has(only), false);
    assert.equal(blobs.has(shared), true);
    const after = Object.fromEntries((await measureHome(home)).map((c) => [c.category, c]));
    assert.equal(after.traffic!.bytes, 1001);
    assert.ok(res.bytes > 0);
    // no writer now: the whole ledger goes, blobs and all
    await clearData(home, ["ledger"]);
    assert.equal(existsSync(join(home, "ledger", `${kept}.jsonl`)), false);
    assert.equal(blobs.has(shared), false);
  }));

test("acp-threads gc --dry-run lists what it would free and removes nothing; gc then frees it", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const { gone } = await seed(home, dir);
    new ThreadStore(home).delete(gone);
    writeHomeSettings(home, { trafficMaxTotalMB: 0 });
    const dry = await runCommand(gcMain, ["--dry-run", "--trash-days", "0", "--format", "json"], { home });
    assert.equal(dry.code, 0, dry.err);
    const report = JSON.parse(dry.out) as { dryRun: boolean; bytes: number; items: { path: string }[] };
    assert.equal(report.dryRun, true);
    assert.ok(report.items.length >= 5 && report.bytes > 1500);
    for (const i of report.items) assert.ok(existsSync(i.path), i.path);
    const text = await runCommand(gcMain, ["--dry-run", "--trash-days", "0"], { home });
    assert.match(text.out, /would free [\d.]+ KB \(\d+ items; run without --dry-run/);
    const real = await runCommand(gcMain, ["--trash-days", "0"], { home });
    assert.equal(real.code, 0, real.err);
    assert.match(real.out, /freed [\d.]+ KB/);
    for (const i of report.items) assert.equal(existsSync(i.path), false, i.path);
    assert.match((await runCommand(gcMain, [], { home })).out, /nothing to collect/);
  }));

test("acp-threads gc collects the steering requests of threads no process runs, and measures them", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const { store, kept, gone } = await seed(home, dir);
    const steer = (id: string, name: string, old = true) => {
      const inbox = join(home, "steer", id);
      mkdirSync(inbox, { recursive: true });
      writeFileSync(join(inbox, name), JSON.stringify({ text: "also run the tests" }));
      if (old) utimesSync(join(inbox, name), OLD, OLD);
      return inbox;
    };
    const ended = steer(gone, "a.req.json"); // the thread ended with a request nobody took
    const orphan = steer("01a00000-0000-7000-8000-000000000000", "b.res.json"); // its thread is deleted
    const fresh = steer(kept, "c.req.json", false); // just written: its requester may still be waiting
    const sizes = Object.fromEntries((await measureHome(home)).map((c) => [c.category, c]));
    assert.equal(sizes.steer?.files, 3, "usage and Clear data see the steer folder");
    const h = store.open(gone);
    try {
      const held = (await planGc(home)).items.filter((i) => i.category === "steer").map((i) => i.path);
      assert.deepEqual(held, [orphan], "a thread a live writer holds keeps its inbox, however old");
    } finally {
      h.close();
    }
    const real = await runCommand(gcMain, ["--format", "json"], { home });
    assert.equal(real.code, 0, real.err);
    const items = (JSON.parse(real.out) as { items: { path: string; category: string }[] }).items;
    assert.deepEqual(
      items
        .filter((i) => i.category === "steer")
        .map((i) => i.path)
        .sort(),
      [ended, orphan].sort(),
    );
    assert.equal(existsSync(ended), false);
    assert.equal(existsSync(orphan), false);
    assert.equal(existsSync(join(fresh, "c.req.json")), true);
  }));
