import assert from "node:assert/strict";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createAgentRuntime } from "../../../../src/core/acp/agent-runtime";
import { importAgentSessions, type AgentImportOptions } from "../../../../src/core/import/agent-import";
import type { AgentSpec } from "../../../../src/core/model/agent";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { conversation } from "../../../../src/core/thread/conversation";
import { historySession, type FakeHistory } from "../../../fixtures/fake-agents/history-script";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { repoRoot } from "../../../fixtures/agent-env/index";

const AGENT_JS = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");

const session = historySession;

interface World {
  home: string;
  cwd: string;
  other: string;
  store: ThreadStore;
  write(h: FakeHistory): void;
  run(o?: Partial<AgentImportOptions>, env?: Record<string, string>): ReturnType<typeof importAgentSessions>;
}

function withWorld(fn: (w: World) => Promise<void>): Promise<void> {
  return withTmpDir("acp-agent-import-", async (dir) => {
    const home = join(dir, "home");
    const cwd = join(dir, "project");
    const other = join(dir, "elsewhere");
    mkdirSync(cwd);
    mkdirSync(other);
    const file = join(dir, "history.json");
    const store = new ThreadStore(home);
    const spec: AgentSpec = {
      id: "fake-stdio",
      displayName: "Fake stdio agent",
      command: process.execPath,
      args: [AGENT_JS],
    };
    const w: World = {
      home,
      cwd,
      other,
      store,
      write: (h) => writeFileSync(file, JSON.stringify(h)),
      run: (o = {}, env = {}) =>
        importAgentSessions({
          threadsDir: store.threadsDir,
          agent: { id: spec.id, name: spec.displayName, command: spec.command, args: spec.args },
          startAgent: (at) =>
            createAgentRuntime(
              { agent: { ...spec, env: { FAKE_AGENT_HISTORY: file, ...env } }, cwd: at, permissionPolicy: "deny-all" },
              { noPty: true },
            ),
          cwd,
          listFrom: cwd,
          ...o,
        }),
    };
    await fn(w);
  });
}

const threadFiles = (store: ThreadStore) => readdirSync(store.threadsDir).filter((f) => f.endsWith(".jsonl"));

test("an agent's sessions of this folder are imported over two pages: messages, thoughts, tool calls with diffs, linked to the agent session", () =>
  withWorld(async (w) => {
    w.write({
      sessions: [
        session("s1", w.cwd, 1, "2026-11-01T10:00:00.000Z"),
        session("s2", w.cwd, 2, "2026-11-02T10:00:00.000Z"),
        session("s3", w.cwd, 1, "2026-11-03T10:00:00.000Z"),
        session("x1", w.other, 1, "2026-11-04T10:00:00.000Z"),
      ],
    });
    const progress: number[] = [];
    const sum = await w.run({ onProgress: (p) => p.outcome && progress.push(p.done) });
    assert.deepEqual(
      {
        listed: sum.listed,
        imported: sum.imported,
        updated: sum.updated,
        unchanged: sum.unchanged,
        failed: sum.failed,
      },
      { listed: 3, imported: 3, updated: 0, unchanged: 0, failed: 0 },
    );
    assert.deepEqual(progress, [1, 2, 3]);
    const s2 = sum.sessions.find((s) => s.sessionId === "s2")!;
    const { metadata, records } = w.store.read(s2.threadId!);
    assert.equal(metadata.agentSessionId, "s2");
    assert.deepEqual(metadata.origin, {
      kind: "agent-import",
      source: "fake-stdio",
      agentSessionId: "s2",
      updatedAt: "2026-11-02T10:00:00.000Z",
    });
    assert.equal(metadata.title, "Session s2");
    assert.equal(metadata.cwd, w.cwd);
    assert.equal(metadata.createdAt, "2026-11-02T10:00:00.000Z");
    assert.equal(metadata.lastActivity, "2026-11-02T10:00:00.000Z");
    assert.equal(metadata.status, "idle");
    assert.deepEqual(metadata.counters, { turns: 2, userMessages: 2, agentMessages: 2, toolCalls: 2 });
    assert.deepEqual(
      records.filter((r) => r.kind !== "meta_patch").map((r) => r.kind),
      [
        "thread_start",
        "session_open",
        ...Array(2).fill(["user_message", "thought", "tool_call", "agent_message", "turn_end"]).flat(),
      ],
    );
    const users = records.flatMap((r) => (r.kind === "user_message" ? [r.text] : []));
    assert.deepEqual(users, ["question 1", "question 2"]);
    const tool = records.find((r) => r.kind === "tool_call");
    assert.ok(tool && tool.kind === "tool_call");
    assert.equal(tool.toolCall.status, "completed");
    assert.deepEqual(tool.toolCall.content[0], {
      type: "diff",
      path: join(w.cwd, "a.txt"),
      oldText: "old",
      newText: "new 1",
    });
    const open = records.find((r) => r.kind === "session_open");
    assert.ok(open && open.kind === "session_open" && open.origin === "load" && open.agentSessionId === "s2");
    assert.equal(conversation(records).filter((e) => e.role === "user").length, 2);
    assert.equal(threadFiles(w.store).length, 3);
    assert.deepEqual(
      readdirSync(w.store.threadsDir).filter((f) => f.startsWith(".agent-import-") && !f.endsWith(".lock")),
      [],
    );

    // a second import adds nothing
    const again = await w.run();
    assert.deepEqual([again.imported, again.updated, again.unchanged, again.failed], [0, 0, 3, 0]);
    assert.equal(threadFiles(w.store).length, 3);

    // --all: the other folder's session too, and only that one is new
    const all = await w.run({ cwd: undefined });
    assert.deepEqual([all.listed, all.imported, all.unchanged], [4, 1, 3]);
    assert.equal(w.store.read(all.sessions.find((s) => s.sessionId === "x1")!.threadId!).metadata.cwd, w.other);
  }));

test("a session that grew is imported again into the same thread, which keeps the user's title", () =>
  withWorld(async (w) => {
    w.write({ sessions: [session("s1", w.cwd, 1, "2026-11-01T10:00:00.000Z")] });
    const first = await w.run();
    const threadId = first.sessions[0]!.threadId!;
    w.store.rename(threadId, "my name");
    w.write({ sessions: [session("s1", w.cwd, 3, "2026-11-05T10:00:00.000Z")] });
    const dry = await w.run({ dryRun: true });
    assert.deepEqual([dry.updated, dry.dryRun], [1, true]);
    assert.equal(w.store.read(threadId).metadata.counters.turns, 1, "a dry run writes nothing");
    const second = await w.run();
    assert.deepEqual([second.imported, second.updated, second.unchanged], [0, 1, 0]);
    assert.equal(second.sessions[0]!.threadId, threadId);
    const { metadata, records } = w.store.read(threadId);
    assert.equal(metadata.counters.turns, 3);
    assert.equal(metadata.title, "my name");
    assert.equal(metadata.origin?.updatedAt, "2026-11-05T10:00:00.000Z");
    assert.equal(records.filter((r) => r.kind === "thread_start").length, 1);
    assert.equal(records.filter((r) => r.kind === "session_open").length, 1);
    assert.equal(threadFiles(w.store).length, 1);
    const third = await w.run();
    assert.deepEqual([third.updated, third.unchanged], [0, 1]);
  }));

test("threads started here and imported threads continued here are never replaced", () =>
  withWorld(async (w) => {
    const ours = w.store.create({
      agent: { id: "fake-stdio", name: "Fake stdio agent", command: process.execPath },
      mode: "acp",
      cwd: w.cwd,
      repoRoot: null,
      gitHead: null,
      agentSessionId: "mine",
    });
    ours.close();
    w.write({
      sessions: [
        session("s1", w.cwd, 1, "2026-11-01T10:00:00.000Z"),
        session("mine", w.cwd, 1, "2026-11-01T10:00:00.000Z"),
      ],
    });
    const first = await w.run();
    assert.deepEqual([first.imported, first.unchanged], [1, 1]);
    assert.equal(first.sessions.find((s) => s.sessionId === "mine")!.reason, "a thread started here");
    const threadId = first.sessions.find((s) => s.sessionId === "s1")!.threadId!;
    // `run --thread` on it: a second session_open, then the agent's updatedAt moves on
    w.store.append(threadId, [{ kind: "session_open", agentSessionId: "s1", origin: "load" }]);
    w.write({ sessions: [session("s1", w.cwd, 2, "2026-11-09T10:00:00.000Z")] });
    const second = await w.run();
    assert.deepEqual([second.updated, second.unchanged], [0, 1]);
    assert.equal(second.sessions[0]!.reason, "continued in ACP Threads");
    assert.equal(w.store.read(threadId).metadata.counters.turns, 1);
  }));

test("a paging loop ends the listing, a failing load fails only its session, folders the agent was not asked for are left out", () =>
  withWorld(async (w) => {
    w.write({
      loopCursor: true,
      ignoreCwd: true,
      sessions: [
        session("bad", w.cwd, 1, "2026-11-01T10:00:00.000Z", { failLoad: true }),
        session("good", w.cwd, 1, "2026-11-02T10:00:00.000Z"),
        session("far", w.other, 1, "2026-11-02T10:00:00.000Z"),
      ],
    });
    const sum = await w.run();
    // page 0 (bad, good), then page 1 (far) answers the cursor it had already answered: the listing stops
    assert.deepEqual([sum.listed, sum.imported, sum.failed], [2, 1, 1]);
    const bad = sum.sessions.find((s) => s.sessionId === "bad")!;
    assert.equal(bad.action, "failed");
    assert.match(bad.reason!, /cannot read the rollout of bad/);
    assert.equal(threadFiles(w.store).length, 1);
  }));

test("a session whose folder is not an absolute path is refused (the agent names where its process starts)", () =>
  withWorld(async (w) => {
    w.write({ sessions: [session("rel", "../../etc", 1, "2026-11-01T10:00:00.000Z")] });
    const sum = await w.run({ cwd: undefined });
    assert.deepEqual([sum.listed, sum.failed, sum.imported], [1, 1, 0]);
    assert.match(sum.sessions[0]!.reason!, /not an absolute path/);
  }));

test("an agent that does not list its sessions gets an error naming it; a cancel stops between sessions", () =>
  withWorld(async (w) => {
    w.write({ sessions: [1, 2, 3].map((n) => session(`s${n}`, w.cwd, 1, "2026-11-01T10:00:00.000Z")) });
    await assert.rejects(
      w.run({}, { FAKE_AGENT_NO_LIST: "1" }),
      /Fake stdio agent does not list its sessions over ACP/,
    );
    const stop = new AbortController();
    const sum = await w.run({ signal: stop.signal, onProgress: (p) => p.outcome && stop.abort() });
    assert.equal(sum.cancelled, true);
    assert.equal(sum.imported, 1);
    assert.equal(threadFiles(w.store).length, 1);
    const rest = await w.run();
    assert.deepEqual([rest.imported, rest.unchanged], [2, 1]);
  }));
