/**
 * The extension host's lock and ledger append path (tryAcquireLockAsync, appendLocked): the same lock protocol as
 * the synchronous one, against real processes and real files.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { AcpThreadsError } from "../../../../src/core/errors";
import { appendLedger, readLedger } from "../../../../src/core/ledger/ledger-file";
import { appendLocked } from "../../../../src/core/store/locked-append";
import {
  liveWriter,
  lockPathFor,
  readLock,
  tryAcquireLock,
  tryAcquireLockAsync,
} from "../../../../src/core/store/file-lock";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { exitOf, spawnChild, startInput, waitForLine, withTmp, outputOf } from "./helpers";

const deadPid = () => spawnSync(process.execPath, ["-e", "0"]).pid!;
const ledgerPath = (dir: string) => join(dir, "ledger", "0196a000-0000-7000-8000-00000000000d.jsonl");
const review = (op: string) => ({ kind: "review" as const, op, path: "/x", hunk: null, action: "keep" as const });

/** A thread file another process holds open for writing while `fn` runs; that process is killed after. */
async function whileHeldByAnother(dir: string, fn: (path: string, pid: number) => Promise<void>) {
  const store = new ThreadStore(join(dir, "home"));
  const h = store.create(startInput(dir));
  h.close();
  const child = spawnChild(["live", store.home, h.threadId]);
  try {
    await waitForLine(child, /^live$/);
    await fn(h.path, child.pid!);
  } finally {
    child.kill("SIGKILL");
    await exitOf(child);
  }
  return h;
}

test("async lock: a stale lock (its pid is gone) is taken over; a live one names its holder", () =>
  withTmp(async (dir) => {
    const file = join(dir, "t.jsonl");
    const stale = { pid: deadPid(), host: hostname(), label: "dead", since: new Date().toISOString(), token: "old" };
    writeFileSync(lockPathFor(file), JSON.stringify(stale));
    const got = await tryAcquireLockAsync(file, { label: "async taker" });
    assert.equal(got.ok, true);
    assert.deepEqual([readLock(file)?.pid, readLock(file)?.label], [process.pid, "async taker"]);
    // held by this thread through the async path: the sync path of the same thread sees it as live
    const again = tryAcquireLock(file);
    assert.equal(again.ok, false);
    assert.equal(!again.ok && again.holder.label, "async taker");
    if (got.ok) await got.release();
    assert.equal(existsSync(lockPathFor(file)), false);

    const h = await whileHeldByAnother(dir, async (path, pid) => {
      const busy = await tryAcquireLockAsync(path);
      assert.equal(busy.ok, false);
      assert.equal(!busy.ok && busy.holder.pid, pid);
    });
    // the holder was killed: its lock is stale and the async path takes it over
    const after = await tryAcquireLockAsync(h.path);
    assert.equal(after.ok, true);
    assert.equal(readLock(h.path)?.pid, process.pid);
    if (after.ok) await after.release();
    assert.equal(liveWriter(h.path), undefined);
  }));

test("async lock: of many concurrent acquirers in one thread, exactly one wins; the others see it held", () =>
  withTmp(async (dir) => {
    const file = join(dir, "t.jsonl");
    writeFileSync(
      lockPathFor(file),
      JSON.stringify({ pid: deadPid(), host: hostname(), label: "dead", since: "", token: "gone" }),
    );
    const attempts = await Promise.all(Array.from({ length: 8 }, () => tryAcquireLockAsync(file)));
    const winners = attempts.filter((a) => a.ok);
    assert.equal(winners.length, 1);
    for (const a of attempts) if (!a.ok) assert.equal(a.holder.pid, process.pid);
    await winners[0]!.release();
    assert.equal(existsSync(lockPathFor(file)), false);
  }));

test("ledger appends from 4 processes (async lock, 3 in flight each): whole batches, never interleaved, in call order", (t) =>
  withTmp(async (dir) => {
    const file = ledgerPath(dir);
    const go = join(dir, "go");
    const script = join(repoRoot(), "dist-test/unit/core/store/append-race.main.js");
    const batches = 40;
    const children = Array.from({ length: 4 }, (_, i) =>
      spawn(process.execPath, [script, file, go, String(i), String(batches), "3"], {
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    const outputs = children.map(outputOf);
    writeFileSync(go, "");
    const stats = (await Promise.all(outputs)).map(
      (out) => JSON.parse(out.trim().split("\n").at(-1)!) as { appended: number; errors: string[] },
    );
    assert.deepEqual(
      stats.flatMap((s) => s.errors),
      [],
    );
    assert.deepEqual(
      stats.map((s) => s.appended),
      [batches, batches, batches, batches],
    );
    const { records, warnings } = readLedger(file);
    assert.deepEqual(warnings, []);
    const ops = records.map((r) => (r as { op: string }).op);
    assert.equal(ops.length, 4 * batches * 3, "records lost");
    const next = new Map<string, number>();
    for (let j = 0; j < ops.length; j += 3) {
      const [child, batch] = ops[j]!.split(":");
      assert.deepEqual(
        ops.slice(j, j + 3),
        [0, 1, 2].map((k) => `${child}:${batch}:${k}`),
        `interleaved at record ${j}`,
      );
      assert.equal(Number(batch), next.get(child!) ?? 0, `child ${child}'s batches out of call order`);
      next.set(child!, Number(batch) + 1);
    }
    assert.equal(existsSync(lockPathFor(file)), false, "every lock was released");
    t.diagnostic(`${ops.length} records from 4 processes`);
  }));

test("a ledger append takes over a stale lock; a live holder in another process is waited for, then named", () =>
  withTmp(async (dir) => {
    const file = ledgerPath(dir);
    await appendLedger(file, [review("first")]);
    writeFileSync(
      lockPathFor(file),
      JSON.stringify({ pid: deadPid(), host: hostname(), label: "dead", since: "", token: "crashed" }),
    );
    await appendLedger(file, [review("after a crash")]);
    assert.deepEqual(
      readLedger(file).records.map((r) => (r as { op: string }).op),
      ["first", "after a crash"],
    );
    assert.equal(existsSync(lockPathFor(file)), false);

    // a thread file another process holds open for writing: waited for (briefly here), then refused, unchanged
    await whileHeldByAnother(dir, async (path, pid) => {
      const before = readFileSync(path, "utf8");
      await assert.rejects(
        appendLocked(path, "{}\n", { waitMs: 200 }),
        (err: AcpThreadsError) => err.code === "locked" && (err.details as { pid?: number }).pid === pid,
      );
      assert.equal(readFileSync(path, "utf8"), before);
    });
  }));

test("a torn last line is cut before an async append; appends of one process land in call order", () =>
  withTmp(async (dir) => {
    const file = ledgerPath(dir);
    await appendLedger(file, [review("a")]);
    writeFileSync(file, '{"v":1,"kind":"rev', { flag: "a" }); // a writer killed mid-line
    await Promise.all([appendLedger(file, [review("b")]), appendLedger(file, [review("c"), review("d")])]);
    const read = readLedger(file);
    assert.deepEqual(read.warnings, []);
    assert.deepEqual(
      read.records.map((r) => (r as { op: string }).op),
      ["a", "b", "c", "d"],
    );
  }));
