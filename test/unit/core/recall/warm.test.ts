import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { openDatabase } from "../../../../src/core/db/sqlite";
import { openRecall } from "../../../../src/core/recall/recall";
import { SCHEMA_VERSION } from "../../../../src/core/recall/schema";
import { askWarm, WarmError } from "../../../../src/core/recall/warm/client";
import { serveWarm } from "../../../../src/core/recall/warm/server";
import { homeLayout } from "../../../../src/core/store/paths";
import type { SearchResult } from "../../../../src/core/recall/search";
import { pidAlive } from "../../../../src/core/store/file-lock";
import { makeWorld, writeRollout } from "./helpers";

/** One raw request line to the socket, as any process of the user could send it: the answer's text. */
function rawAsk(socket: string, req: object): Promise<string> {
  return new Promise((resolve, reject) => {
    const conn = connect(socket);
    let buf = "";
    conn.on("connect", () => conn.write(`${JSON.stringify(req)}\n`));
    conn.on("data", (d) => (buf += String(d)));
    conn.on("error", reject);
    conn.on("end", () => resolve(buf));
  });
}

const CLI = join(__dirname, "..", "..", "..", "..", "dist", "cli.js");

test("the warm recall process answers reads, admits one server per socket, and leaves when idle or its home is gone", async () => {
  const w = makeWorld();
  try {
    writeRollout(w, "warm1", w.repoA, [{ role: "user", text: "the quokka migration" }]);
    const r = openRecall(w.home);
    r.importCodex({ root: w.codexRoot, allHistory: true });
    const dbPath = r.dbPath;
    r.close();
    const socket = join(w.dir, "warm.sock");
    const keyFile = join(w.dir, "warm.key");
    const base = { home: w.home, dbPath, socket, keyFile, checkMs: 50 };
    const at = { socket, keyFile };
    // the reads: a server that outlives the importer's synchronous work below (under load that work can outlast a
    // short idle time, and the server would then rightly leave between two requests)
    const reads = serveWarm({ ...base, idleMs: 60_000 });
    await waitUntil(() => existsSync(socket));
    assert.equal(await serveWarm({ ...base, idleMs: 300 }), "busy", "a second server for the same socket leaves");
    const found = (await askWarm(at, { op: "search", query: "quokka", opts: { global: true } })) as SearchResult;
    assert.equal(found.sessions.length, 1);
    // an import by another process after the server opened the index: the next answer has it
    writeRollout(w, "warm2", w.repoA, [{ role: "user", text: "quokka again, second session" }]);
    const importer = openRecall(w.home);
    importer.importCodex({ root: w.codexRoot, allHistory: true });
    importer.close();
    const again = (await askWarm(at, { op: "search", query: "quokka", opts: { global: true } })) as SearchResult;
    assert.equal(again.sessions.length, 2, "never a stale answer");
    const md = (await askWarm(at, {
      op: "search",
      query: "quokka",
      opts: { global: true },
      render: "markdown",
    })) as string;
    assert.match(md, /## Recall: "quokka"/);
    await assert.rejects(askWarm(at, { op: "bogus" } as never), WarmError, "a bad request is the server's answer");
    // hostile: a process that reaches the socket but cannot read the key (a sandboxed agent) reads nothing
    const raw = await rawAsk(socket, { op: "search", query: "quokka", opts: { global: true } });
    assert.deepEqual(JSON.parse(raw), { ok: false, error: "a request without the warm process's key", code: "no_key" });
    const wrong = askWarm({ socket, keyFile: join(w.dir, "none.key") }, { op: "status" });
    await assert.rejects(wrong, (err: Error) => !(err instanceof WarmError) && /refused/.test(err.message));
    await askWarm(at, { op: "stop" });
    assert.equal(await reads, "stopped");

    // idle: a server that answered once and then hears nothing leaves, and takes its socket with it
    const idle = serveWarm({ ...base, idleMs: 300 });
    await waitUntil(() => existsSync(socket));
    const once = (await askWarm(at, { op: "search", query: "quokka", opts: { global: true } })) as SearchResult;
    assert.equal(once.sessions.length, 2);
    assert.equal(await idle, "idle");
    assert.equal(existsSync(socket), false, "the socket goes with it");

    const gone = serveWarm({ ...base, idleMs: 60_000 });
    await waitUntil(() => existsSync(socket));
    rmSync(socket); // what deleting a test's temp home does to it
    assert.equal(await gone, "gone");
  } finally {
    w.cleanup();
  }
});

test("a CLI query leaves a warm process behind, the next one is answered by it with the same text, --stop ends it", async () => {
  const w = makeWorld();
  const env = { ...process.env, ACP_THREADS_HOME: w.home, ACP_THREADS_RECALL_DAEMON: "" };
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], { env, cwd: w.repoA, encoding: "utf8", timeout: 60_000 });
  try {
    assert.equal(cli("recall", "bootstrap", "--root", w.codexRoot, "--all-history").status, 0);
    const first = cli("recall", "--global", "rollback");
    assert.equal(first.status, 0, first.stderr);
    await waitUntil(() => /^running/.test(cli("recall", "serve", "--status").stdout), 30_000);
    const second = cli("recall", "--global", "rollback");
    assert.equal(
      second.stdout.replace(/elapsed: .*/, ""),
      first.stdout.replace(/elapsed: .*/, ""),
      "the same answer from the warm process",
    );
    const lock = readdirSync(join(w.home, "index")).find((f) => f.endsWith(".sock.lock"))!;
    const pid = Number(/"pid":\s*(\d+)/.exec(readFileSync(join(w.home, "index", lock), "utf8"))![1]);
    assert.match(cli("recall", "serve", "--stop").stdout, /^stopped/);
    await waitUntil(() => !pidAlive(pid), 10_000);
    const off = spawnSync(process.execPath, [CLI, "recall", "--global", "rollback"], {
      env: { ...env, ACP_THREADS_RECALL_DAEMON: "0" },
      encoding: "utf8",
    });
    assert.equal(off.status, 0);
    assert.match(cli("recall", "serve", "--status").stdout, /^not running/, "ACP_THREADS_RECALL_DAEMON=0 starts none");
  } finally {
    cli("recall", "serve", "--stop");
    w.cleanup();
  }
});

// #36 item 5: the first call (no warm process yet: after a login, an upgrade, an idle exit) answers in its own
// process; it must say what the warm process says, for every kind of query, and a dead server's socket left on
// that path must not change the answer
test("the first call answers like the warm process (selective, common, CJK, FTS syntax); a dead server's socket is passed over", async () => {
  const w = makeWorld();
  const { env, cli, running, text } = cliIn(w);
  // the first call leaves a warm process behind; one it started while the stopped one still held the socket's
  // lock leaves at once (the next call starts another): then start one here
  const ensureWarm = async () => {
    try {
      await waitUntil(running, 15_000);
    } catch {
      spawn(process.execPath, [CLI, "recall", "serve"], { env, detached: true, stdio: "ignore" }).unref();
      await waitUntil(running, 60_000);
    }
  };
  try {
    for (let i = 0; i < 6; i++)
      writeRollout(w, `first${i}`, w.repoA, [
        { role: "user", text: `the wombat ${i % 2 ? "migration" : "rollback"} of session ${i}` },
        {
          role: "assistant",
          text: `修复数据库迁移的错误 ${i}; the wombat answer, and "quoted" words - NEAR(x) col:${i}`,
        },
      ]);
    writeRollout(w, "first-rare", w.repoA, [{ role: "user", text: "a lone quetzal appears once" }]);
    assert.equal(cli("recall", "bootstrap", "--root", w.codexRoot, "--all-history").status, 0);
    const queries = ["quetzal", "wombat", "数据", 'wombat "quoted" NEAR(x) col:3 -migration* AND|OR'];
    let socket: string | undefined;
    const warmTexts = new Map<string, string>();
    for (const q of queries) {
      cli("recall", "serve", "--stop");
      await waitUntil(() => !running(), 10_000);
      const first = cli("recall", "--global", "--format", "json", q);
      assert.equal(first.status, 0, first.stderr);
      await ensureWarm();
      socket = join(
        w.home,
        "index",
        readdirSync(join(w.home, "index")).find((f) => f.endsWith(".sock"))!,
      );
      const warm = cli("recall", "--global", "--format", "json", q);
      assert.equal(warm.status, 0, warm.stderr);
      assert.equal(text(first), text(warm), `the first call and the warm process agree on ${q}`);
      warmTexts.set(q, text(warm));
      assert.ok((JSON.parse(first.stdout) as SearchResult).sessions.length > 0, `${q} finds something`);
    }
    // a server killed without cleaning up leaves its socket file: the next first call answers in-process
    cli("recall", "serve", "--stop");
    await waitUntil(() => !running(), 10_000);
    const dead = spawnSync(
      process.execPath,
      [
        "-e",
        `require("net").createServer().listen(${JSON.stringify(socket)}, () => process.kill(process.pid, "SIGKILL"))`,
      ],
      { encoding: "utf8" },
    );
    assert.equal(dead.signal, "SIGKILL");
    assert.ok(existsSync(socket!), "the dead server's socket is still there");
    const after = cli("recall", "--global", "--format", "json", "wombat");
    assert.equal(after.status, 0, after.stderr);
    assert.equal(text(after), warmTexts.get("wombat"));
    await ensureWarm(); // the one this call started: stopped below, not left to outlive the test's home
  } finally {
    cli("recall", "serve", "--stop");
    w.cleanup();
  }
});

// #36 item 5: the first call after an upgrade to a new schema rebuilds the index while it answers. A warm process
// listening meanwhile would be asked (by a second call) and open the same file mid-rebuild: one process deleting
// the file the other is filling, two rebuilds. So the warm process is started after the answer (reader.ts), and a
// change that starts it earlier (it was tried: docs/stop-35/recall-ledger.md) must keep that order for this case
test("the first call after an upgrade (an old-schema index) rebuilds alone, with no warm process listening until it is done; the answers agree", async () => {
  const w = makeWorld();
  const { env, cli, running, text } = cliIn(w);
  const dbPath = homeLayout(w.home).recallDb;
  const indexDir = join(dbPath, "..");
  try {
    // enough sessions that the rebuild takes a while (a server started early would be seen listening)
    for (let i = 0; i < 1000; i++)
      writeRollout(w, `up${i}`, w.repoA, [
        { role: "user", text: `the ocelot upgrade number ${i}, with the rollback plan` },
        {
          role: "assistant",
          text: `step ${i}: migrate the table, then verify the ocelot rows ${"and more ".repeat(20)}`,
        },
      ]);
    writeRollout(w, "up-rare", w.repoA, [{ role: "user", text: "a lone quetzal appears once" }]);
    assert.equal(cli("recall", "bootstrap", "--root", w.codexRoot, "--all-history").status, 0);
    const before = cli("recall", "--global", "--format", "json", "quetzal");
    assert.equal(before.status, 0, before.stderr);
    await waitUntil(running, 60_000); // the one that call left behind, stopped before the upgrade
    cli("recall", "serve", "--stop");
    await waitUntil(() => !running(), 10_000);
    const db = openDatabase(dbPath);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION - 1}`); // what an upgrade to a new schema finds
    db.close();

    const child = spawn(process.execPath, [CLI, "recall", "--global", "--format", "json", "quetzal"], {
      env,
      cwd: w.repoA,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    let answeredAt: number | undefined;
    child.stdout.on("data", (d: Buffer) => {
      answeredAt ??= Date.now();
      out += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    let exitedAt: number | undefined;
    const exited = new Promise<number | null>((resolve) =>
      child.on("exit", (code) => {
        exitedAt = Date.now();
        resolve(code);
      }),
    );
    let listenedAt: number | undefined;
    while (exitedAt === undefined) {
      if (listenedAt === undefined && readdirSync(indexDir).some((f) => f.endsWith(".sock"))) listenedAt = Date.now();
      await new Promise((r) => setTimeout(r, 5));
    }
    assert.equal(await exited, 0, err);
    // the warm process is spawned once the answer is out: a socket seen before the answer arrived is a server
    // that could have been asked during the rebuild (an order, not a duration: the rebuild's length varies by machine)
    assert.ok(answeredAt !== undefined, "the call answered");
    assert.ok(
      listenedAt === undefined || listenedAt >= answeredAt,
      `a warm process listened ${answeredAt - listenedAt!} ms before the rebuilding call answered`,
    );
    assert.equal(schemaOf(dbPath), SCHEMA_VERSION, "the first call rebuilt the index");
    const stamp = () => {
      const st = statSync(dbPath);
      return `${st.ino}:${st.size}:${st.mtimeMs}`;
    };
    const rebuilt = stamp();
    assert.equal(text({ stdout: out }), text(before), "the first call's answer is the one before the upgrade");

    await waitUntil(running, 60_000); // the one the first call left behind
    const warm = cli("recall", "--global", "--format", "json", "quetzal");
    assert.equal(warm.status, 0, warm.stderr);
    assert.equal(text(warm), text(before), "the warm process answers the same");
    assert.equal(stamp(), rebuilt, "the warm process only read it: no second rebuild");
  } finally {
    cli("recall", "serve", "--stop");
    w.cleanup();
  }
});

/** The built CLI in a test world (warm process allowed), whether its warm process runs, an answer's stable text. */
function cliIn(w: ReturnType<typeof makeWorld>) {
  const env = { ...process.env, ACP_THREADS_HOME: w.home, ACP_THREADS_RECALL_DAEMON: "" };
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], { env, cwd: w.repoA, encoding: "utf8", timeout: 120_000 });
  const running = () => /^running/.test(cli("recall", "serve", "--status").stdout);
  const text = (r: { stdout: string }) => r.stdout.replace(/"elapsed_ms":\s*[\d.]+/g, "");
  return { env, cli, running, text };
}

function schemaOf(dbPath: string): number | undefined {
  const db = openDatabase(dbPath);
  try {
    return db.get<{ user_version: number }>("PRAGMA user_version")?.user_version;
  } finally {
    db.close();
  }
}

async function waitUntil(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}
