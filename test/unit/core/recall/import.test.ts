import { spawn, type ChildProcess } from "node:child_process";
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  appendFileSync,
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../../../src/core/db/sqlite";
import { openRecall } from "../../../../src/core/recall/recall";
import { acquireLock, lockPathFor } from "../../../../src/core/store/file-lock";
import { findFile, importAll, makeWorld, withIndex, writeRollout } from "./helpers";

type Msg = { role: string; kind: string; tool: string | null; body: string; line: number };
const messages = (dbPath: string, like: string): Msg[] => {
  const db = openDatabase(dbPath, { readOnly: true });
  try {
    return db.all<Msg>("SELECT role, kind, tool, body, line FROM messages WHERE body LIKE ? ORDER BY mid", `%${like}%`);
  } finally {
    db.close();
  }
};

test("Codex mirrors of one message are indexed once and injected context is stripped", () => {
  withIndex((w, r) => {
    assert.equal(messages(r.dbPath, "Fix the flaky migration rollback").length, 1);
    assert.equal(messages(r.dbPath, "我来修复数据库迁移").length, 1);
    assert.equal(
      messages(r.dbPath, "Looking at the migration runner").length,
      1,
      "reasoning summary once, its agent_reasoning mirror skipped",
    );
    for (const needle of ["ENVNEEDLE", "IDENEEDLE", "BASEINSTRUCTIONSNEEDLE", "FUTURENEEDLE", "My request for Codex"]) {
      assert.equal(messages(r.dbPath, needle).length, 0, `${needle} must not be indexed`);
    }
    const dev = messages(r.dbPath, "DEVNEEDLE");
    assert.deepEqual(
      dev.map((m) => m.role),
      ["developer"],
      "developer text is indexed, with its role",
    );
    const compaction = messages(r.dbPath, "by wrapping it in a transaction");
    assert.deepEqual(
      compaction.map((m) => m.kind),
      ["compaction"],
    );
    const out = messages(r.dbPath, "rollbackTransaction(db)");
    assert.equal(out[0].tool, "shell", "a tool output carries the name of its call");
    assert.equal(out[0].line, 11, "the line number points into the transcript");
    assert.equal(
      out[0].body,
      "src/store/migrate.ts:42: await rollbackTransaction(db)\nOPENAI_API_KEY=[REDACTED]\n",
      'the {"output", "metadata"} JSON of a shell result is indexed as its readable text',
    );
    assert.deepEqual(
      messages(r.dbPath, "webpack compiled").map((m) => m.body),
      ["webpack compiled with 2 warnings"],
      "a legacy {content, metadata} output object is read too",
    );
  });
});

test("secrets are redacted before they reach the index", () => {
  withIndex((w, r) => {
    assert.equal(messages(r.dbPath, "sk-proj-abcdef").length, 0);
    assert.equal(messages(r.dbPath, "OPENAI_API_KEY=[REDACTED]").length, 1);
    assert.equal(r.search("abcdefghijklmnopqrstuvwxyz123456", { global: true }).status, "no_match");
    assert.equal(readFileSync(r.dbPath).includes("sk-proj-abcdefghij"), false, "not even in free pages");
    assert.equal(statSync(r.dbPath).mode & 0o777, 0o600, "the index is private to the user");
  });
});

test("a key pasted into a session's first prompt is redacted in its stored preview too", () => {
  const w = makeWorld();
  writeRollout(w, "keyfirst", w.repoA, [
    { role: "user", text: "deploy with OPENAI_API_KEY=sk-proj-firstpromptsecret0123456789 please" },
  ]);
  const r = openRecall(w.home);
  try {
    r.importCodex({ root: w.codexRoot, allHistory: true });
    const s = r.recent({ global: true }).sessions.find((x) => x.preview?.startsWith("deploy with"));
    assert.equal(s?.preview, "deploy with OPENAI_API_KEY=[REDACTED] please");
    assert.equal(readFileSync(r.dbPath).includes("firstpromptsecret"), false, "nor in the parser state of the file");
    // a Claude message joined from two lines: its text so far is parser state too
    const claude = join(w.claudeRoot, "proj-alpha", "5ec2e700-1111-4222-8333-944455556666.jsonl");
    const line = (uuid: string, parent: string | null, block: unknown) =>
      JSON.stringify({
        type: "assistant",
        uuid,
        parentUuid: parent,
        sessionId: "5ec2e700-1111-4222-8333-944455556666",
        cwd: w.repoA,
        message: { id: "msg_key", role: "assistant", content: [block] },
      });
    writeFileSync(
      claude,
      `${line("k1", null, { type: "text", text: "use sk-proj-claudestatesecret0123456789 for it" })}\n`,
    );
    r.importClaude({ root: w.claudeRoot, allHistory: true });
    appendFileSync(claude, `${line("k2", "k1", { type: "text", text: "and then run it" })}\n`);
    r.importClaude({ root: w.claudeRoot, allHistory: true });
    assert.equal(readFileSync(r.dbPath).includes("claudestatesecret"), false);
    assert.equal(
      r.search("run", { global: true }).sessions.some((x) => x.id.startsWith("5ec2e700")),
      true,
    );
  } finally {
    r.close();
    w.cleanup();
  }
});

test("Claude lines of one message are joined, replays dropped, meta and wrappers skipped", () => {
  withIndex((w, r) => {
    const joined = messages(r.dbPath, "The reconnect backoff resets");
    assert.equal(joined.length, 1);
    assert.match(joined[0].body, /resets on every attempt\.\nLet me read the client/);
    assert.equal(
      messages(r.dbPath, "Confirmed: backoff is reset").length,
      1,
      "the sidechain replay of msg_02 is dropped",
    );
    assert.equal(messages(r.dbPath, "SIDECHAINOWNNEEDLE").length, 1, "the sub-agent's own text is kept");
    for (const needle of ["THINKNEEDLE", "METANEEDLE", "/clear", "command-name"])
      assert.equal(messages(r.dbPath, needle).length, 0, needle);
    const read = messages(r.dbPath, "jitterless");
    assert.deepEqual([read[0].role, read[0].tool], ["tool", "Read"]);
    assert.deepEqual(
      messages(r.dbPath, "CLAUDECOMPACTNEEDLE").map((m) => m.kind),
      ["compaction"],
    );
    const recent = r.recent({ repo: w.repoA });
    const claude = recent.sessions.find((s) => s.source === "claude_code_jsonl" && !s.path.includes("subagents"));
    assert.equal(claude?.title, "Fix websocket reconnect backoff");
    assert.equal(claude?.preview, "Why does the websocket reconnect loop spin? 会话 keeps dropping");
  });
});

test("unknown record types are skipped and counted, bad lines are counted, nothing is lost", () => {
  withIndex((w, r) => {
    const s = r.status();
    const codex = s.sources.find((x) => x.source === "codex_rollout")!;
    const claude = s.sources.find((x) => x.source === "claude_code_jsonl")!;
    assert.equal(codex.unknown_records, 1);
    assert.equal(codex.bad_lines, 1, "the legacy file's broken last line");
    assert.equal(claude.unknown_records, 1);
    assert.ok(r.search("webpack", { global: true }).sessions.length === 1, "the legacy file's good lines are indexed");
  });
});

test("a torn last line is left for the next sync and then indexed", () => {
  const w = makeWorld();
  const path = join(w.dir, "torn.jsonl");
  const meta = JSON.stringify({
    timestamp: "2026-11-21T00:00:00Z",
    type: "session_meta",
    payload: { id: "torn-1", cwd: w.repoA },
  });
  const msg = JSON.stringify({
    timestamp: "2026-11-21T00:00:01Z",
    type: "response_item",
    payload: { type: "message", role: "user", content: [{ type: "input_text", text: "halfwritten zebra" }] },
  });
  writeFileSync(path, `${meta}\n${msg.slice(0, 40)}`);
  const r = openRecall(w.home);
  try {
    const first = r.archiveFile(path);
    assert.deepEqual([first.messages, first.bad_lines], [0, 0]);
    appendFileSync(path, `${msg.slice(40)}\n`);
    const second = r.archiveFile(path);
    assert.deepEqual([second.messages, second.bad_lines], [1, 0]);
    assert.equal(r.search("zebra", { repo: w.repoA }).sessions.length, 1);
  } finally {
    r.close();
    w.cleanup();
  }
});

test("a re-sync reads only the appended tail, and re-reads a file that shrank", () => {
  withIndex((w, r) => {
    const path = findFile(w.codexRoot, "000000000001");
    assert.equal(r.importCodex({ root: w.codexRoot, allHistory: true }).unchanged, 2, "nothing changed: stat only");
    // scribble over an already-indexed line in place: a tail reader never looks at it again
    const text = readFileSync(path, "utf8");
    const at = Buffer.byteLength(text.slice(0, text.indexOf("Looking at the migration runner")));
    const fd = openSync(path, "r+");
    writeSync(fd, "XXXXXXX", at);
    closeSync(fd);
    const added = JSON.stringify({
      timestamp: "2026-11-20T11:00:00Z",
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text: "appended quokka request" }] },
    });
    appendFileSync(path, `${added}\n`);
    const sum = r.importCodex({ root: w.codexRoot, allHistory: true });
    assert.deepEqual([sum.imported, sum.messages, sum.bad_lines], [1, 1, 1]);
    assert.equal(r.search("quokka", { repo: w.repoA }).sessions.length, 1);
    assert.equal(
      r.search("Looking", { repo: w.repoA }).status,
      "ok",
      "the old text stays indexed: the head was not re-read",
    );
    truncateSync(path, Buffer.byteLength(text) - 10);
    r.importCodex({ root: w.codexRoot, allHistory: true });
    assert.equal(r.search("quokka", { repo: w.repoA }).status, "no_match", "a shrunk file is re-read from its start");
    assert.equal(r.search("XXXXXXX", { repo: w.repoA }).status, "ok");
  });
});

test("a corrupt or old-schema index is rebuilt from the remembered sources", () => {
  const w = makeWorld();
  const r = importAll(w);
  const dbPath = r.dbPath;
  r.close();
  try {
    writeFileSync(dbPath, "this is not a database".repeat(500));
    const again = openRecall(w.home);
    assert.equal(again.rebuilt, true);
    assert.equal(again.search("websocket", { repo: w.repoA }).sessions.length, 1);
    again.close();
    const db = openDatabase(dbPath);
    db.exec("PRAGMA user_version = 1");
    db.close();
    const third = openRecall(w.home);
    assert.equal(third.rebuilt, true);
    assert.equal(third.search("rollback", { repo: w.repoA }).status, "ok");
    third.close();
  } finally {
    w.cleanup();
  }
});

test("a forked Codex rollout's copy of its parent's history is not indexed twice", () => {
  withIndex((w, r) => {
    const parent = findFile(w.codexRoot, "000000000001");
    const lines = readFileSync(parent, "utf8").trim().split("\n");
    const meta = JSON.parse(lines[0]) as { payload: Record<string, unknown> };
    meta.payload = {
      ...meta.payload,
      id: "019a0000-aaaa-7bbb-8ccc-0000000000f1",
      forked_from_id: "019a0000-aaaa-7bbb-8ccc-000000000001",
    };
    const own = JSON.stringify({
      timestamp: "2026-11-20T12:00:00Z",
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text: "fork-only axolotl question" }] },
    });
    const copy = lines.slice(1, 13); // the parent's first turn, verbatim
    writeFileSync(
      join(w.dir, "codex-sessions", "rollout-2026-11-20T12-00-00-019a0000-aaaa-7bbb-8ccc-0000000000f1.jsonl"),
      `${[JSON.stringify(meta), ...copy, own].join("\n")}\n`,
    );
    const sum = r.importCodex({ root: w.codexRoot, allHistory: true });
    assert.equal(sum.messages, 1, "only the fork's own message is new");
    assert.equal(messages(r.dbPath, "Fix the flaky migration rollback").length, 1);
    assert.equal(r.search("axolotl", { repo: w.repoA }).sessions.length, 1);
  });
});

test("one importer at a time: a second one is told who is importing, the automatic sync just skips", () => {
  const w = makeWorld();
  const r = openRecall(w.home);
  const release = acquireLock(`${r.dbPath}.import`); // what another process's running import holds
  try {
    assert.equal(r.syncOwnThreads().busy, true);
    assert.throws(
      () => r.importCodex({ root: w.codexRoot, allHistory: true }),
      /another recall import is running \(pid \d+\)/,
    );
    release();
    assert.equal(r.importCodex({ root: w.codexRoot, allHistory: true }).messages, 15);
  } finally {
    release();
    r.close();
    w.cleanup();
  }
});

/**
 * Another process holding the lock file `lock` as `script` says (node source with `fs`, the lock path `L` and a
 * holder record `body` naming it); returns once the lock is there (or after 5 s).
 */
function lockHolder(lock: string, script: string): ChildProcess {
  const body =
    'const body=JSON.stringify({pid:process.pid,host:require("os").hostname(),label:"test holder",since:new Date().toISOString(),token:"t"});';
  const source = `const fs=require("fs");const L=${JSON.stringify(lock)};${body}${script}`;
  const child = spawn(process.execPath, ["-e", source], { stdio: "ignore" });
  const until = Date.now() + 5000;
  while (!existsSync(lock) && Date.now() < until) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
  return child;
}

test("a holder that lets the import lock go while it is asked about is not an error: the sync runs or skips", () => {
  const w = makeWorld();
  const r = openRecall(w.home, { shardWorker: false });
  try {
    const lock = lockPathFor(`${r.dbPath}.import`);
    const stop = `${lock}.stop-test`;
    // another process takes and releases the lock every millisecond or so: a refusal must name a holder that was
    // live when it refused, never fail because the holder was gone a moment later
    const nap = "const nap=(ms)=>Atomics.wait(new Int32Array(new SharedArrayBuffer(4)),0,0,ms);";
    const holder = lockHolder(
      lock,
      `${nap}while(!fs.existsSync(${JSON.stringify(stop)})){try{fs.writeFileSync(L,body,{flag:"wx"});nap(1);fs.rmSync(L)}catch{}nap(1)}`,
    );
    try {
      let ran = 0;
      let skipped = 0;
      for (let i = 0; i < 400; i++) {
        if (r.syncOwnThreads().busy) skipped++;
        else ran++;
      }
      assert.ok(skipped > 0, `${ran} ran, ${skipped} skipped: the holder was seen`);
    } finally {
      writeFileSync(stop, "");
      holder.kill();
    }
  } finally {
    r.close();
    w.cleanup();
  }
});

test("an import waits for a short holder of the import lock (the own-thread sync before a search) instead of refusing", () => {
  const w = makeWorld();
  const r = openRecall(w.home, { shardWorker: false });
  try {
    const lock = lockPathFor(`${r.dbPath}.import`);
    // another process holds the lock for 400 ms, as a search's sync of our own threads does for a moment
    const holder = lockHolder(lock, "fs.writeFileSync(L,body);setTimeout(()=>fs.rmSync(L),400)");
    try {
      assert.ok(existsSync(lock), "the holder took the lock");
      assert.equal(r.importCodex({ root: w.codexRoot, allHistory: true }).messages, 15);
    } finally {
      holder.kill();
    }
  } finally {
    r.close();
    w.cleanup();
  }
});
