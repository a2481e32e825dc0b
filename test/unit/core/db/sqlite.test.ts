import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { openDerivedDatabase, openDerivedDatabaseAsync } from "../../../../src/core/db/sqlite";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { exitOf, waitForLine, withTmp } from "../store/helpers";

const SCHEMA = 3;
const create = (db: { exec(sql: string): void }) => db.exec("CREATE TABLE IF NOT EXISTS t(x)");

/** Another process holding the file (a CLI import mid-batch) for `ms`. */
async function holder(path: string, ms: number) {
  const child = spawn(
    process.execPath,
    [join(repoRoot(), "dist-test/unit/core/db/hold-db.main.js"), path, String(ms)],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  await waitForLine(child, /^held$/);
  return child;
}

/** Counts timer ticks while `fn` runs: a blocked event loop cannot tick. */
async function ticksDuring<T>(fn: () => Promise<T> | T): Promise<{ ticks: number; result: T }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  try {
    const result = await fn();
    return { ticks, result };
  } finally {
    clearInterval(timer);
  }
}

test("opening an index another process holds busy waits without blocking the event loop", () =>
  withTmp(async (dir) => {
    const path = join(dir, "index.sqlite");
    const first = openDerivedDatabase(path, SCHEMA, create);
    first.db.close();
    const child = await holder(path, 1000);
    try {
      const { ticks, result } = await ticksDuring(() => openDerivedDatabaseAsync(path, SCHEMA, create));
      assert.equal(result.created, false, "the existing index is used, not rebuilt");
      assert.equal(result.db.get<{ n: number }>("SELECT count(*) AS n FROM t")?.n, 1, "the holder's write is seen");
      result.db.close();
      assert.ok(ticks >= 5, `the event loop kept turning while it waited (${ticks} timer ticks)`);
    } finally {
      await exitOf(child);
    }
  }));

test("the synchronous open (CLI) waits for the same holder, blocking, and gets the same result", () =>
  withTmp(async (dir) => {
    const path = join(dir, "index.sqlite");
    openDerivedDatabase(path, SCHEMA, create).db.close();
    const child = await holder(path, 500);
    try {
      const { ticks, result } = await ticksDuring(() => openDerivedDatabase(path, SCHEMA, create));
      assert.equal(result.created, false);
      assert.equal(result.db.get<{ n: number }>("SELECT count(*) AS n FROM t")?.n, 1);
      result.db.close();
      assert.equal(ticks, 0, "a synchronous wait blocks the thread (why the host uses the async open)");
    } finally {
      await exitOf(child);
    }
  }));
