import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { main as threadsMain } from "../../../../src/cli/commands/threads";
import {
  acquireLock,
  liveWriter,
  lockPathFor,
  processBoot,
  readLock,
  setLockLabel,
  tryAcquireLock,
  UNREADABLE_GRACE_MS,
  waitForLock,
} from "../../../../src/core/store/file-lock";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { runCommand } from "../../cli/in-process";
import { exitOf, spawnChild, startInput, waitForLine, withTmp } from "./helpers";

/** A pid that is certainly gone: a child that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", "0"]).pid!;
}

const holderJson = (pid: number, token: string) =>
  JSON.stringify({ pid, host: hostname(), label: "test", since: new Date().toISOString(), token });

test("a lock file that exists but is still empty is held, not stale, until it is old", () =>
  withTmp((dir) => {
    const file = join(dir, "t.jsonl");
    writeFileSync(lockPathFor(file), ""); // an older version between creating the lock and writing it
    const attempt = tryAcquireLock(file);
    assert.equal(attempt.ok, false);
    assert.match(!attempt.ok ? attempt.holder.label : "", /unreadable/);
    assert.equal(readFileSync(lockPathFor(file), "utf8"), "", "the lock being written is left alone");
    assert.throws(
      () => acquireLock(file),
      (err: Error & { code?: string }) => err.code === "locked",
    );
    const old = (Date.now() - UNREADABLE_GRACE_MS - 5_000) / 1000;
    utimesSync(lockPathFor(file), old, old);
    const release = acquireLock(file);
    assert.equal(readLock(file)?.pid, process.pid);
    release();
    assert.equal(existsSync(lockPathFor(file)), false);
  }));

test("the lock names its holder: pid, host, label and since; a stale one is taken over", () =>
  withTmp((dir) => {
    const file = join(dir, "t.jsonl");
    writeFileSync(lockPathFor(file), holderJson(deadPid(), "old-token"));
    assert.equal(liveWriter(file), undefined, "a dead holder is no live writer");
    setLockLabel("acp-threads test");
    const release = acquireLock(file);
    const h = readLock(file)!;
    assert.deepEqual([h.pid, h.host, h.label], [process.pid, hostname(), "acp-threads test"]);
    assert.ok(Date.now() - Date.parse(h.since) < 60_000);
    assert.deepEqual(liveWriter(file), h);
    // a second opener in this process is refused and told who holds it
    const second = tryAcquireLock(file);
    assert.deepEqual(second.ok ? undefined : second.holder, h);
    assert.throws(
      () => acquireLock(file),
      /already being written by process \d+; only one writer is allowed \(held by acp-threads test, since /,
    );
    release();
    release(); // twice is harmless
    assert.equal(existsSync(lockPathFor(file)), false);
    assert.deepEqual(
      readdirSync(dir).filter((n) => n !== "t.jsonl"),
      [],
      "no temp or guard files are left behind",
    );
  }));

test("a taker of a stale lock that is alive keeps the others out; one that died is passed over", () =>
  withTmp((dir) => {
    const file = join(dir, "t.jsonl");
    const lock = lockPathFor(file);
    writeFileSync(lock, holderJson(deadPid(), "stale1"));
    // another process is taking it over right now (its guard names a live pid)
    writeFileSync(`${lock}.takeover-stale1`, holderJson(process.ppid, "taker1"));
    const busy = tryAcquireLock(file);
    assert.equal(busy.ok ? undefined : busy.holder.token, "taker1");
    assert.match(readFileSync(lock, "utf8"), /stale1/, "the stale lock is left to that taker");
    // that taker died before finishing: the next one passes over its guard
    writeFileSync(`${lock}.takeover-stale1`, holderJson(deadPid(), "taker1"));
    const release = acquireLock(file);
    assert.equal(readLock(file)?.pid, process.pid);
    release();
    assert.deepEqual(
      readdirSync(dir).filter((n) => n !== "t.jsonl"),
      [],
    );
  }));

test("a lock another thread of this process holds is live; one a previous process with our pid left is stale", () =>
  withTmp((dir) => {
    const file = join(dir, "t.jsonl");
    const lock = lockPathFor(file);
    const ours = (boot: number, token: string) =>
      JSON.stringify({ ...JSON.parse(holderJson(process.pid, token)), boot, thread: "another-thread" });
    // the import worker's lock, seen from the query worker: same pid, same start, another thread
    writeFileSync(lock, ours(processBoot, "worker1"));
    assert.equal(liveWriter(file)?.token, "worker1");
    const busy = tryAcquireLock(file);
    assert.equal(busy.ok ? undefined : busy.holder.token, "worker1");
    assert.deepEqual(
      readdirSync(dir).filter((n) => n !== "t.lock" && n !== "t.jsonl.lock"),
      [],
      "a live holder is answered without writing a lock file of our own",
    );
    // the same pid in a process that started a minute earlier: a previous process, gone
    writeFileSync(lock, ours(processBoot - 60_000, "old1"));
    assert.equal(liveWriter(file), undefined);
    const release = acquireLock(file);
    assert.equal(readLock(file)?.boot, processBoot);
    release();
    // a lock of our pid from a version without the start: live only if this thread holds its token
    writeFileSync(lock, holderJson(process.pid, "older-version"));
    assert.equal(liveWriter(file), undefined);
  }));

test("waitForLock takes the lock over when the holder in another process exits", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir));
    h.close();
    const child = spawnChild(["write", store.home, h.threadId]);
    let told: number | undefined;
    try {
      await waitForLine(child, /^locked$/);
      const waiting = waitForLock(h.path, { pollMs: 20, onBusy: (holder) => (told = holder.pid) });
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(told, child.pid, "the waiter is told who holds it");
      child.kill("SIGKILL");
      await exitOf(child);
      const release = await waiting;
      assert.equal(readLock(h.path)?.pid, process.pid);
      release();
    } finally {
      child.kill("SIGKILL");
    }
  }));

test("a lock conflict in the CLI exits 6 and names the holder", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const store = new ThreadStore(home);
    setLockLabel("VS Code window");
    const h = store.create(startInput(dir));
    try {
      for (const argv of [
        ["rename", h.threadId, "new title"],
        ["delete", h.threadId],
      ]) {
        const r = await runCommand(threadsMain, argv, { home, cwd: dir });
        assert.equal(r.code, 6, `${argv[0]}: ${r.err}`);
        assert.match(r.err, new RegExp(`process ${process.pid}.*VS Code window`), argv[0]);
      }
    } finally {
      h.close();
    }
    assert.equal((await runCommand(threadsMain, ["rename", h.threadId, "new title"], { home, cwd: dir })).code, 0);
  }));
