// The engine's run on a thread (src/core/session/run-loop.ts), driven directly with the stdio fake agent (a real
// process) and a real data home: two prompts end ok; the timeout ends the run `timeout` with its session closed;
// a prompt the agent cannot take at the first turn (usage) throws; a run kept open stays for its next prompt after
// an error turn, where a plain run leaves with the error.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { AcpThreadsError } from "../../../../src/core/errors";
import { nullLogger } from "../../../../src/core/log";
import type { NextPrompt, RunNote } from "../../../../src/core/model/run";
import type { ThreadSession } from "../../../../src/core/session";
import { runLoop } from "../../../../src/core/session/run-loop";
import type { RunLoopOptions } from "../../../../src/core/session/run-options";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { repoRoot } from "../../../fixtures/agent-env/index";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const AGENT_JS = join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js");

function options(dir: string, more: Partial<RunLoopOptions> = {}): RunLoopOptions {
  const home = join(dir, "home");
  const agent = { id: "fake-stdio", displayName: "Fake stdio", command: process.execPath, args: [AGENT_JS] };
  return {
    store: new ThreadStore(home),
    logger: nullLogger,
    target: async () => ({ agent, cwd: dir }),
    prompts: ["one"],
    permission: "approve-all",
    env: { ACP_THREADS_HOME: home },
    signal: new AbortController().signal,
    stallMs: 0,
    retry: "off",
    ...more,
  };
}

const answers = (o: RunLoopOptions, threadId: string | null) => {
  assert.ok(threadId, "the run was recorded");
  return o.store.read(threadId).records.flatMap((r) => (r.kind === "agent_message" ? [r.text] : []));
};

test("a run of two prompts ends ok: both turns in the thread, its agent named, its session closed idle", () =>
  withTmpDir("acp-run-loop-", async (dir) => {
    let session: ThreadSession | undefined;
    const turns: number[] = [];
    const o = options(dir, {
      prompts: ["one", "two"],
      onSession: (s) => (session = s),
      event: (e, turn) => e.type === "text" && turns.push(turn),
    });
    const r = await runLoop(o);
    assert.equal(r.end, "ok", r.error);
    assert.equal(r.turns, 2);
    assert.equal(r.stopReason, "end_turn");
    assert.equal(r.origin, "new");
    assert.equal(r.agent.id, "fake-stdio");
    assert.deepEqual(answers(o, r.threadId), ["echo: one", "echo: two"]);
    assert.deepEqual([...new Set(turns)], [1, 2], "each event comes with its turn");
    assert.equal(session?.status, "closed");
    assert.equal(o.store.read(r.threadId!).metadata.status, "idle");
  }));

test("the timeout ends the run `timeout`: the turn is cancelled and the session closed", () =>
  withTmpDir("acp-run-loop-", async (dir) => {
    let session: ThreadSession | undefined;
    const o = options(dir, {
      prompts: ["sleep 600000", "never sent"],
      timeoutMs: 500,
      onSession: (s) => (session = s),
    });
    const r = await runLoop(o);
    assert.equal(r.end, "timeout");
    // under load the clock may run out before the first prompt is sent: then none is
    assert.ok(r.turns <= 1, "no prompt goes after the timeout");
    if (r.turns) assert.equal(r.stopReason, "cancelled", "the running turn was cancelled");
    assert.ok(session, "the session opened");
    assert.equal(session.status, "closed");
    assert.equal(session.agentAlive, false, "the agent is stopped");
    assert.ok(!answers(o, r.threadId).some((t) => /never sent/.test(t)));
  }));

test("a prompt the agent cannot take at the first turn (usage) throws: the caller's to fix", () =>
  withTmpDir("acp-run-loop-", async (dir) => {
    let session: ThreadSession | undefined;
    const o = options(dir, { prompts: [""], firstParts: [], onSession: (s) => (session = s) });
    await assert.rejects(runLoop(o), (err: unknown) => err instanceof AcpThreadsError && err.code === "usage");
    assert.equal(session?.status, "closed", "its session is closed all the same");
  }));

test("a run kept open stays for its next prompt after an error turn; a plain run leaves with the error", () =>
  withTmpDir("acp-run-loop-", async (dir) => {
    const next: (NextPrompt | undefined)[] = [{ text: "two" }, undefined];
    const notes: RunNote[] = [];
    const kept = options(dir, {
      prompts: ["fail the model is down"],
      keepOpen: true,
      nextPrompt: () => next.shift(),
      note: (n) => notes.push(n),
    });
    const r = await runLoop(kept);
    assert.equal(r.end, "ok", r.error);
    assert.equal(r.turns, 2);
    assert.deepEqual(answers(kept, r.threadId), ["failing", "echo: two"], "the same run went on");
    assert.deepEqual(notes, []);

    const plain = options(dir, { prompts: ["fail the model is down", "two"] });
    const p = await runLoop(plain);
    assert.equal(p.end, "error");
    assert.match(p.error ?? "", /the model is down/);
    assert.equal(p.turns, 1, "the run left after its error turn");
    assert.equal(plain.store.read(p.threadId!).metadata.status, "failed");
  }));
