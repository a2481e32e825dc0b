import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { writeCorpus } from "../../../../bench/recall-corpus";
import { cli, findFile, makeWorld } from "../../core/recall/helpers";
import { repoRoot } from "../../../fixtures/agent-env/index";

const CLI = join(repoRoot(), "dist", "cli.js");

test("bootstrap, sync-claude, recall --format json and status work end to end in-process", async () => {
  const w = makeWorld();
  try {
    const opts = { home: w.home, cwd: w.repoA };
    const boot = await cli(["recall", "bootstrap", "--root", w.codexRoot, "--all-history", "--format", "json"], opts);
    assert.equal(boot.code, 0, boot.err);
    assert.equal(JSON.parse(boot.out).messages, 15);
    assert.equal(JSON.parse(boot.out).compacted, undefined, "one batch leaves one segment: nothing to compact");
    assert.equal((await cli(["recall", "sync-claude", "--root", w.claudeRoot, "--all-history"], opts)).code, 0);
    const res = await cli(["recall", "--format", "json", "--top-k", "1", "reconnect", "backoff"], opts);
    assert.equal(res.code, 0, res.err);
    const json = JSON.parse(res.out);
    assert.deepEqual([json.schema_version, json.status, json.scope.kind, json.sessions.length], [1, "ok", "repo", 1]);
    assert.equal(typeof json.elapsed_ms, "number");
    const md = await cli(["recall", "登录"], opts);
    assert.match(md.out, /## Recall: "登录"/);
    assert.match(md.out, /\*\*user\*\* #\d+ \(line \d+\)/);
    const none = await cli(["recall", "zzqqxxnothing"], opts);
    assert.deepEqual([none.code, /Status: no_match/.test(none.out)], [0, true]);
    const status = await cli(["status"], opts);
    assert.match(status.out, /codex_rollout: 2 sessions, 15 messages/);
    assert.match(status.out, /claude_code_jsonl: 2 sessions/);
    const recent = await cli(["recall", "--recent", "--format", "json"], opts);
    assert.ok(JSON.parse(recent.out).sessions.length >= 2);
  } finally {
    w.cleanup();
  }
});

test("a bulk bootstrap compacts the index and says so; a later tail sync does not", async () => {
  const dir = mkdtempSync(join(tmpdir(), "recall-cli-compact-"));
  try {
    const corpus = writeCorpus(join(dir, "sessions"), 6000);
    const opts = { home: join(dir, "home"), cwd: dir };
    const boot = await cli(["recall", "bootstrap", "--root", corpus.root, "--all-history"], opts);
    assert.equal(boot.code, 0, boot.err);
    assert.match(boot.out, /6000 new messages/);
    assert.match(boot.out, /^index compacted: \d+ → 1 segments in \d+ ms$/m);
    const again = await cli(["recall", "bootstrap", "--root", corpus.root, "--all-history", "--format", "json"], opts);
    assert.equal(JSON.parse(again.out).compacted, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("bad input gets a clear usage error and exit code 2", async () => {
  const w = makeWorld();
  try {
    const opts = { home: w.home, cwd: w.repoA };
    const unknown = await cli(["recall", "--frobnicate", "x"], opts);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /unknown option '--frobnicate'/);
    assert.equal((await cli(["recall", "--limit", "lots", "x"], opts)).code, 2);
    assert.equal((await cli(["recall"], opts)).code, 2);
    assert.equal((await cli(["session-archive"], opts)).code, 2);
    const missing = await cli(["session-archive", "--transcript-path", join(w.dir, "nope.jsonl")], opts);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /ENOENT|no such file/);
  } finally {
    w.cleanup();
  }
});

test("session-archive indexes one file with the given cwd and session id", async () => {
  const w = makeWorld();
  try {
    const file = findFile(w.claudeRoot, "0b5c1d2e-1111-4222-8333-944455556666.jsonl");
    const opts = { home: w.home, cwd: w.repoB };
    const res = await cli(
      ["session-archive", "--transcript-path", file, "--cwd", w.repoB, "--session-id", "given-id", "--format", "json"],
      opts,
    );
    assert.equal(res.code, 0, res.err);
    assert.equal(JSON.parse(res.out).source, "claude_code_jsonl");
    const found = JSON.parse((await cli(["recall", "--global", "--format", "json", "jitterless"], opts)).out);
    assert.equal(found.sessions[0].path, file);
  } finally {
    w.cleanup();
  }
});

test("install-skill copies SKILL.md for Codex and Claude", async () => {
  const w = makeWorld();
  try {
    const res = await cli(["recall", "install-skill"], { home: w.home, cwd: w.repoA });
    assert.equal(res.code, 0, res.err);
    const userHome = join(w.home, "user-home");
    for (const p of [".codex/skills/acp-threads-recall/SKILL.md", ".claude/skills/acp-threads-recall/SKILL.md"]) {
      assert.ok(existsSync(join(userHome, p)), p);
      assert.match(readFileSync(join(userHome, p), "utf8"), /^---\nname: acp-threads-recall/);
    }
  } finally {
    w.cleanup();
  }
});

test(
  "the MCP server answers initialize, tools/list and a recall tools/call over stdio",
  { skip: !existsSync(CLI) && "dist/cli.js not built" },
  async () => {
    const w = makeWorld();
    const opts = { home: w.home, cwd: w.repoA };
    await cli(["recall", "bootstrap", "--root", w.codexRoot, "--all-history"], opts);
    const child = spawn(process.execPath, [CLI, "mcp"], {
      cwd: w.repoA,
      env: { ...process.env, ACP_THREADS_HOME: w.home },
      stdio: ["pipe", "pipe", "inherit"],
    });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const ask = async (msg: object) => {
      child.stdin!.write(`${JSON.stringify(msg)}\n`);
      return JSON.parse((await lines.next()).value as string) as { id: unknown; result?: any; error?: any };
    };
    try {
      const init = await ask({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      });
      assert.equal(init.result.protocolVersion, "2025-06-18");
      assert.ok(init.result.capabilities.tools);
      child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
      const list = await ask({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      assert.deepEqual(
        list.result.tools.map((t: { name: string }) => t.name),
        ["recall", "recall_recent"],
      );
      const call = await ask({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "recall", arguments: { query: "rollback", format: "json" } },
      });
      assert.equal(call.id, 3);
      assert.equal(call.result.isError, false);
      assert.equal(JSON.parse(call.result.content[0].text).sessions[0].source, "codex_rollout");
      const bad = await ask({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "recall", arguments: {} } });
      assert.equal(bad.result.isError, true);
      const unknown = await ask({ jsonrpc: "2.0", id: 5, method: "nope" });
      assert.equal(unknown.error.code, -32601);
      const garbage = await ask({ not: "json-rpc" } as object);
      assert.equal(garbage.error.code, -32600);
    } finally {
      child.stdin!.end();
      await new Promise((resolve) => child.once("exit", resolve));
      w.cleanup();
    }
  },
);
