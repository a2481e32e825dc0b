// #24 item 4: the extension host's recurring paths make no synchronous file call. Every `*Sync` function of
// node:fs is counted while the path runs (the bundles call them through the module object, so the count sees
// every one): the permission checks and audit log of each request, the sessions tree listing past threads again (every 5 s while an agent works), the traffic
// recorder taking a busy agent's lines, and the provenance hover on a file being typed in.
import assert from "node:assert/strict";
import childProcess, { execFileSync } from "node:child_process";
import fs, { mkdirSync, writeFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { PermissionStore, type AuditRecord } from "../../../src/core/acp/permission-store";
import { ProtocolLog } from "../../../src/core/acp/protocol-log";
import { readTraffic, TrafficRecorder } from "../../../src/core/bundle/traffic";
import { BlobStore } from "../../../src/core/ledger/blob-store";
import { ProvenanceIndex } from "../../../src/core/ledger/provenance";
import { changedFilesOf } from "../../../src/core/ledger/summary";
import { WorkspaceTracker } from "../../../src/core/ledger/tracker";
import { ThreadSession } from "../../../src/core/session";
import { localEngine } from "../../../src/core/engine/local";
import { ThreadStore } from "../../../src/core/store/thread-store";
import { PastThreads } from "../../../src/vscode/past-threads";
import { OTHER_THREAD, THREAD, turn, withLedger } from "./ledger/helpers";
import { startInput, withTmp } from "./store/helpers";
import { followPushes } from "./engine/helpers";
import { repoRoot } from "../../fixtures/agent-env/index";
import { startFake } from "../../fixtures/fake-agents/in-process";

/** The catalog's first-load worker, as the build bundles it. */
const CATALOG_WORKER = join(repoRoot(), "dist", "catalog-worker.js");

type FsTable = Record<string, unknown>;

/**
 * Runs `fn` with every sync function of `module` (node:fs unless told) counted (those whose arguments `counts`
 * takes; `named`: which functions, the *Sync ones unless told); returns the names called (with repeats).
 */
async function syncCalls(
  fn: () => Promise<void> | void,
  module: object = fs,
  counts: (args: unknown[]) => boolean = () => true,
  named: (name: string) => boolean = (name) => name.endsWith("Sync"),
): Promise<string[]> {
  const table = module as unknown as FsTable;
  const seen: string[] = [];
  const saved = new Map<string, unknown>();
  for (const name of Object.keys(table)) {
    const orig = table[name];
    if (!named(name) || typeof orig !== "function") continue;
    saved.set(name, orig);
    table[name] = function (this: unknown, ...args: unknown[]) {
      if (counts(args)) seen.push(name);
      return (orig as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
  try {
    await fn();
  } finally {
    for (const [name, orig] of saved) table[name] = orig;
  }
  return seen;
}

test("the sessions tree lists past threads again without a file call; another process's write is read async", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const store = new ThreadStore(home);
    for (let i = 0; i < 40; i++) store.create(startInput(dir, { title: `t${i}` })).close();
    const past = new PastThreads(store);
    try {
      assert.equal((await past.list({ cwds: [dir] })).length, 40); // the first listing loads (once)
      const calls = await syncCalls(async () => {
        for (let i = 0; i < 20; i++) assert.equal((await past.list({ cwds: [dir] })).length, 40);
        await past.list({ cwds: [] });
        await past.agents();
      });
      assert.deepEqual(calls, [], "a refresh with nothing changed");
      // another process (its own store) renames a thread: the watcher marks it, the next listing reads its tail
      const other = new ThreadStore(home);
      const id = other.ids()[3]!;
      const changed = new Promise<void>((resolve) => past.onDidChange(() => resolve()));
      const keepAlive = setInterval(() => undefined, 1000); // the watcher does not hold the process open
      other.rename(id, "renamed elsewhere");
      await changed;
      clearInterval(keepAlive);
      let titles: string[] = [];
      const after = await syncCalls(async () => {
        titles = (await past.list({ cwds: [dir] })).map((t) => t.title);
      });
      assert.ok(titles.includes("renamed elsewhere"), titles.join(", "));
      assert.deepEqual(after, []);
      // a thread another process adds is listed at once (one async folder listing), before any watcher event
      const added = other.create(startInput(dir, { title: "added elsewhere" }));
      added.close();
      const listed = await syncCalls(async () => {
        titles = (await past.list({ cwds: [dir] })).map((t) => t.title);
      });
      assert.equal(titles[0], "added elsewhere");
      assert.deepEqual(listed, []);
      // this process's own writes: read once, when the handle closes
      const h = store.create(startInput(dir, { title: "mine" }));
      h.close();
      assert.equal((await past.list({ cwds: [dir] }))[0]!.title, "mine");
      assert.equal(past.metadata(h.threadId)?.title, "mine");
    } finally {
      past.dispose();
    }
  }));

test("the sessions tree's first listing and opening a past thread make no sync file call", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const store = new ThreadStore(home);
    for (let i = 0; i < 40; i++) {
      const h = store.create(startInput(dir, { title: `t${i}` }));
      h.append({ kind: "user_message", messageId: `u${i}`, text: `hello ${i}` });
      h.close();
    }
    // an index from an earlier window that misses the newer threads: the first load syncs it
    const earlier = new PastThreads(store, undefined, { catalogWorker: CATALOG_WORKER });
    assert.equal((await earlier.list({ cwds: [dir] })).length, 40);
    earlier.dispose();
    for (let i = 40; i < 45; i++) store.create(startInput(dir, { title: `t${i}` })).close();
    const past = new PastThreads(store, undefined, { catalogWorker: CATALOG_WORKER });
    try {
      let titles: string[] = [];
      let loaded: Awaited<ReturnType<PastThreads["load"]>>;
      let gone: Awaited<ReturnType<PastThreads["load"]>>;
      const seventh = store.ids()[7]!;
      const calls = await syncCalls(async () => {
        titles = (await past.list({ cwds: [dir] })).map((t) => t.title);
        loaded = await past.load(seventh);
        gone = await past.load("0196a000-0000-7000-8000-0000000000ff");
      });
      assert.deepEqual(calls, []);
      assert.equal(titles.length, 45);
      assert.equal(titles[0], "t44");
      assert.equal(loaded!.title, "t7");
      assert.ok(loaded!.events.length > 0);
      assert.equal(gone, undefined);
    } finally {
      past.dispose();
    }
  }));

test("resuming a thread reads and reopens its file without a sync file call; a torn tail is repaired", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const first = store.create(startInput(dir, { title: "resumed" }));
    first.append({ kind: "user_message", messageId: "u1", text: "before" });
    first.close();
    fs.appendFileSync(first.path, '{"v":1,"kind":"agent_mess'); // a crash mid-line
    let title: string | null | undefined;
    let handle: Awaited<ReturnType<ThreadStore["openAsync"]>> | undefined;
    const calls = await syncCalls(async () => {
      title = (await store.readExisting(first.threadId)).metadata.title;
      handle = await store.openAsync(first.threadId);
    });
    assert.deepEqual(calls, []);
    assert.equal(title, "resumed");
    await assert.rejects(store.openAsync(first.threadId), /already open for writing/);
    handle!.append({ kind: "user_message", messageId: "u2", text: "after" });
    handle!.close();
    const texts = store.read(first.threadId).records.flatMap((r) => (r.kind === "user_message" ? [r.text] : []));
    assert.deepEqual(texts, ["before", "after"]);
    // the session's resume: the thread file (and its lock) are read and opened without a sync call
    const onThread = (args: unknown[]) => typeof args[0] === "string" && args[0].includes(first.threadId);
    let session: ThreadSession | undefined;
    const resumeCalls = await syncCalls(
      async () => {
        session = await ThreadSession.resume(
          {
            store,
            live: { flushMs: 0 },
            createRuntime: () => startFake({ prompt: async () => "end_turn" }, { cwd: dir }),
          },
          first.threadId,
        );
      },
      fs,
      onThread,
    );
    await session!.close();
    assert.deepEqual(resumeCalls, []);
    const missing = "0196a000-0000-7000-8000-0000000000ff";
    await assert.rejects(store.readExisting(missing), /no thread/);
    await assert.rejects(store.openAsync(missing), /no thread/);
  }));

test("a panel following a thread another writer holds (threads.follow in process) makes no sync file call", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create(startInput(dir, { title: "followed" }));
    // the window's engine: its own store (the window's), the thread named by its whole id
    const engine = localEngine({ store: new ThreadStore(store.home) });
    const pushes = followPushes();
    let following: Promise<{ free: boolean }> | undefined;
    // the writer's appends and close are its own sync calls: only the follow runs inside the counted spans
    const calls = await syncCalls(async () => {
      following = engine.call({ op: "threads.follow", threadId: h.threadId, pollMs: 100 }, { onProgress: pushes.on });
      await pushes.until(() => pushes.holders().length === 1);
    });
    for (let i = 0; i < 3; i++) h.append({ kind: "user_message", messageId: `u${i}`, text: `hi ${i}` });
    calls.push(...(await syncCalls(() => pushes.until(() => pushes.records().length === 3))));
    assert.deepEqual(
      pushes.records().map((r) => r.kind),
      ["user_message", "user_message", "user_message"],
    );
    h.close();
    let reply: { free: boolean } | undefined;
    calls.push(...(await syncCalls(async () => void (reply = await following))));
    assert.deepEqual(calls, []);
    assert.equal(reply?.free, true, "the writer let go");
    assert.equal(pushes.holders().length, 1, "its writer, once");
  }));

test("the traffic recorder takes a busy agent's lines without a sync write, and they all reach the file", () =>
  withTmp(async (dir) => {
    const log = new ProtocolLog();
    const path = join(dir, "traffic", "0196a000-0000-7000-8000-00000000000c.ndjson");
    const rec = new TrafficRecorder(path);
    rec.addSession("s1");
    rec.follow(log);
    const calls = await syncCalls(() => {
      for (let i = 0; i < 2000; i++) {
        const update = { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { text: `${i}` } } };
        log.add("recv", JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: update }));
      }
      log.add("stderr", "token=abcdef0123456789 leaked");
    });
    assert.deepEqual(calls, []);
    await rec.close();
    const { entries } = await readTraffic(path);
    assert.equal(entries.length, 2001);
    assert.equal(entries[1999]!.m?.method, "session/update");
    assert.doesNotMatch(entries[2000]!.x ?? "", /abcdef0123456789/);
  }));

test("the provenance hover reads no file while no ledger changed, and sees an append after invalidate", () =>
  withLedger(async (ws, ledger) => {
    const file = join(ws, "a.txt");
    await turn(ledger, ws, 1, () => writeFileSync(file, "one\ntwo\n"));
    const index = new ProvenanceIndex(ledger);
    const first = await syncCalls(async () => assert.equal((await index.linesOf(file, "one\ntwo\n"))[0]?.turn, 1));
    assert.deepEqual(first, [], "worked out once, off the thread");
    let lines: Awaited<ReturnType<ProvenanceIndex["linesOf"]>> = [];
    const typing = async () => {
      for (let i = 0; i < 50; i++) lines = await index.linesOf(file, `typed ${i}\none\ntwo\n`);
    };
    // neither a sync call nor an asynchronous one (fs/promises): nothing is read again
    const promised: string[] = [];
    const calls = await syncCalls(async () => {
      promised.push(...(await syncCalls(typing, fs.promises, undefined, () => true)));
    });
    assert.deepEqual(calls, []);
    assert.deepEqual(promised, []);
    assert.deepEqual(
      lines.map((l) => l?.turn ?? null),
      [null, 1, 1],
    );
    await turn(ledger, ws, 2, () => writeFileSync(file, "one\ntwo\nthree\n"));
    index.invalidate(THREAD);
    assert.deepEqual(
      (await index.linesOf(file, "one\ntwo\nthree\n")).map((l) => l?.turn ?? null),
      [1, 1, 2],
    );
  }));

test("'Since you left' reads a thread's changed files since then without a sync file call", () =>
  withLedger(async (ws, ledger) => {
    const before = new Date(Date.now() - 1000).toISOString();
    await turn(ledger, ws, 1, () => writeFileSync(join(ws, "a.txt"), "one\n"));
    await new Promise((r) => setTimeout(r, 5));
    const since = new Date().toISOString();
    await turn(ledger, ws, 2, () => writeFileSync(join(ws, "b.txt"), "two\n"));
    let all: string[] = [];
    let recent: string[] = [];
    let none: string[] = [];
    const calls = await syncCalls(async () => {
      all = await changedFilesOf(ledger, { threadId: THREAD, cwd: ws }, before);
      recent = await changedFilesOf(ledger, { threadId: THREAD, cwd: ws }, since);
      none = await changedFilesOf(ledger, { threadId: OTHER_THREAD, cwd: ws }, before);
    });
    assert.deepEqual(calls, []);
    assert.deepEqual(all.sort(), ["a.txt", "b.txt"]);
    assert.deepEqual(recent, ["b.txt"], "only the turns since then");
    assert.deepEqual(none, [], "a thread without a ledger changed nothing");
  }));

test("a permission check and its audit record make no sync file call; every record reaches the log in order", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const store = new PermissionStore(home);
    await store.remember({ agentId: "x", kind: "execute", key: "npm test", scope: dir });
    const record = (i: number): AuditRecord => ({
      at: new Date(0).toISOString(),
      agentId: "x",
      sessionId: "s1",
      toolCallId: `t${i}`,
      title: "npm test",
      kind: "execute",
      path: "npm test",
      policy: "ask",
      decidedBy: "remembered",
      optionKind: "allow_once",
      optionId: "allow",
    });
    const writes: Promise<void>[] = [];
    const calls = await syncCalls(async () => {
      for (let i = 0; i < 200; i++) {
        assert.ok(await store.find("x", "execute", "npm test", dir));
        writes.push(store.audit(record(i)));
      }
      assert.equal(await store.find("x", "execute", "rm -rf", dir), undefined);
      await Promise.all(writes);
    });
    assert.deepEqual(calls, []);
    const lines = (await readFile(join(home, "audit.jsonl"), "utf8")).trim().split("\n");
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as AuditRecord).toolCallId),
      Array.from({ length: 200 }, (_, i) => `t${i}`),
    );
    assert.equal((await stat(join(home, "audit.jsonl"))).mode & 0o777, 0o600);
  }));

test("remembering and revoking a rule takes the rules file's lock without a sync file call", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const store = new PermissionStore(home);
    await store.remember({ agentId: "x", kind: "execute", key: "npm ci", scope: dir }); // the folder exists
    const calls = await syncCalls(async () => {
      await store.remember({ agentId: "x", kind: "execute", key: "npm test", scope: dir });
      assert.equal(await store.revoke("x"), 2);
    });
    assert.deepEqual(calls, []);
    assert.deepEqual(await new PermissionStore(home).rules(), []);
    assert.equal(fs.existsSync(join(home, "permissions.json.lock")), false);
  }));

test("the ledger's stat walk at each turn's end (no directory watches) makes no sync file call", () =>
  withTmp(async (dir) => {
    const ws = join(dir, "ws");
    for (let d = 0; d < 5; d++) {
      mkdirSync(join(ws, `d${d}`), { recursive: true });
      for (let f = 0; f < 20; f++) writeFileSync(join(ws, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`);
    }
    const t = await WorkspaceTracker.open(ws, { blobs: new BlobStore(join(dir, "blobs")), watch: false });
    try {
      assert.equal(t.mode, "walk");
      writeFileSync(join(ws, "d2", "f3.txt"), "changed by the turn\n");
      writeFileSync(join(ws, "d4", "new.txt"), "added by the turn\n");
      let deltas: Awaited<ReturnType<WorkspaceTracker["sync"]>> = [];
      const calls = await syncCalls(async () => {
        deltas = await t.sync();
      });
      assert.deepEqual(calls, []);
      assert.deepEqual(deltas.map((d) => d.rel).sort(), ["d2/f3.txt", "d4/new.txt"]);
    } finally {
      t.dispose();
    }
  }));

test("a new session's thread records the folder's git facts without a sync git process", () =>
  withTmp(async (dir) => {
    const ws = join(dir, "repo");
    mkdirSync(ws);
    const git = (...args: string[]) => execFileSync("git", args, { cwd: ws, encoding: "utf8" }).trim();
    git("init", "-q");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "first");
    const store = new ThreadStore(join(dir, "home"));
    let session: ThreadSession | undefined;
    const calls = await syncCalls(async () => {
      session = await ThreadSession.start({
        store,
        agent: { id: "fake", name: "Fake", command: "/bin/false" },
        cwd: ws,
        live: { flushMs: 0 },
        createRuntime: () => startFake({ prompt: async () => "end_turn" }, { cwd: ws }),
      });
    }, childProcess);
    await session!.close();
    assert.deepEqual(calls, []);
    const start = store.read(session!.threadId).records[0]!;
    assert.equal(start.kind === "thread_start" && start.gitHead, git("rev-parse", "HEAD"));
    assert.ok(start.kind === "thread_start" && start.repoRoot?.endsWith("repo"));
  }));
