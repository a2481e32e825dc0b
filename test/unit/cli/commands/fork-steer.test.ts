// `acp-threads fork THREAD --at N`: a new linked thread with the conversation up to message N, seeded on its first
// turn (or an agent session made by session/fork when the agent offers it and the fork is at the end); and
// `acp-threads run --thread ID --steer TEXT` from a second process.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { test } from "node:test";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { numberedMessages } from "../../../../src/core/handoff/fork-cut";
import { FAKE_AGENT, runCli, startCli, type CliResult } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const run = (args: string[], home: string, env?: NodeJS.ProcessEnv) => runCli(args, { home, env });
const summaryOf = (r: CliResult) => JSON.parse(r.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
const texts = (home: string, id: string) => numberedMessages(new ThreadStore(home).read(id).records).map((m) => m.text);

test("a fork at message N holds the conversation up to N, links both ways and is seeded on its first turn", () =>
  withTmpDir("acp-fork-", async (home) => {
    const first = await run(["run", "--agent", FAKE_AGENT, "--format", "json", "one", "two", "three"], home);
    assert.equal(first.code, 0, first.stderr);
    const source = summaryOf(first).threadId as string;
    const shown = await run(["threads", "show", source], home);
    assert.match(shown.stdout, /#4 \[[^\]]+\] agent:\n {4}echo: two/);
    const fork = await run(["fork", source.slice(0, 20), "--at", "4", "--format", "json"], home);
    assert.equal(fork.code, 0, fork.stderr);
    const out = JSON.parse(fork.stdout) as { threadId: string; forkedFrom: unknown; agentSessionId: unknown };
    assert.deepEqual(out.forkedFrom, { threadId: source, messageIndex: 4 });
    assert.equal(out.agentSessionId, null);
    assert.deepEqual(texts(home, out.threadId), ["one", "echo: one", "two", "echo: two"]);
    const store = new ThreadStore(home);
    const meta = store.read(out.threadId).metadata;
    assert.deepEqual(meta.origin, { kind: "fork", source, messageIndex: 4 });
    assert.equal(meta.agentSessionId, null);
    assert.deepEqual(meta.counters, { turns: 2, userMessages: 2, agentMessages: 2, toolCalls: 0 });
    assert.deepEqual(store.read(source).metadata.forks, [out.threadId]);
    assert.deepEqual(texts(home, source).length, 6, "the source is untouched");
    const forkShown = await run(["threads", "show", out.threadId], home);
    assert.match(forkShown.stdout, new RegExp(`forked from ${source} at message 4`));
    assert.match((await run(["threads", "show", source], home)).stdout, new RegExp(`forks ${out.threadId}`));
    const next = await run(["run", "--thread", out.threadId, "--format", "json", "what now"], home);
    assert.equal(next.code, 0, next.stderr);
    assert.equal(summaryOf(next).origin, "seeded");
    assert.match(next.stdout, /echo: [^]*two[^]*what now/);
    assert.doesNotMatch(next.stdout, /three/);
  }));

test("forking at the end uses session/fork when the agent offers it", () =>
  withTmpDir("acp-fork-", async (home) => {
    const env = { FAKE_AGENT_FORK: "1" };
    const first = await run(["run", "--agent", FAKE_AGENT, "--format", "json", "one"], home, env);
    const source = summaryOf(first).threadId as string;
    const fork = await run(["fork", source], home, env);
    assert.equal(fork.code, 0, fork.stderr);
    const id = fork.stdout.trim();
    assert.match(fork.stderr, /at message 2 → .*session\/fork → agent session fake-fork-1/);
    assert.equal(new ThreadStore(home).read(id).metadata.agentSessionId, "fake-fork-1");
    const next = await run(["run", "--thread", id, "--format", "json", "two"], home, env);
    assert.equal(next.code, 0, next.stderr);
    assert.deepEqual([summaryOf(next).origin, summaryOf(next).sessionId], ["load", "fake-fork-1"]);
  }));

test("bad input: --at out of range and a thread whose agent is gone get clear errors and create nothing", () =>
  withTmpDir("acp-fork-", async (home) => {
    const first = await run(["run", "--agent", FAKE_AGENT, "--format", "json", "one"], home);
    const source = summaryOf(first).threadId as string;
    const threads = () => readdirSync(new ThreadStore(home).threadsDir).filter((f) => f.endsWith(".jsonl")).length;
    for (const at of ["3", "0"]) {
      const res = await run(["fork", source, "--at", at], home);
      assert.equal(res.code, 2, res.stderr);
      assert.match(res.stderr, new RegExp(`message ${at} is out of range: thread ${source} has 2 messages \\(1–2`));
    }
    const store = new ThreadStore(home);
    const gone = store.create({
      agent: { id: "gone-agent", name: "Gone Agent", command: "/nonexistent/gone-agent" },
      mode: "acp",
      cwd: home,
      repoRoot: null,
      gitHead: null,
    });
    gone.append({ kind: "user_message", messageId: "m1", text: "hello" });
    gone.close();
    const before = threads();
    const res = await run(["fork", gone.threadId], home);
    assert.equal(res.code, 1, res.stderr);
    assert.match(
      res.stderr,
      /Gone Agent \(the agent of thread .*\) is not installed here.*--agent; nothing was created/,
    );
    assert.equal(threads(), before);
    const other = await run(["fork", gone.threadId, "--agent", FAKE_AGENT], home);
    assert.equal(other.code, 0, other.stderr);
    assert.equal(threads(), before + 1);
  }));

test("run --thread ID --steer TEXT hands the text to the process running the thread, which steers it in", () =>
  withTmpDir("acp-steer-", async (home) => {
    const env = { FAKE_AGENT_STEERING: "1" };
    const first = await run(["run", "--agent", FAKE_AGENT, "--format", "json", "hello"], home, env);
    const threadId = summaryOf(first).threadId as string;
    const idle = await run(["run", "--thread", threadId, "--steer", "too early"], home, env);
    assert.equal(idle.code, 2);
    assert.match(idle.stderr, /no process is running thread .*: nothing to steer/);
    const owner = startCli(["run", "--thread", threadId, "sleep 60000"], {
      home,
      env,
      onStdout: (out, child) => void (out.includes("sleeping") && child.emit("sleeping")),
    });
    await new Promise((r) => owner.child.once("sleeping", r));
    const steered = await run(["run", "--thread", threadId, "--steer", "look at the tests too"], home, env);
    assert.equal(steered.code, 0, steered.stderr);
    const r = await owner.done;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /steered: look at the tests too/);
    const users = new ThreadStore(home)
      .read(threadId)
      .records.flatMap((x) => (x.kind === "user_message" ? [[x.text, x.steered ?? false]] : []));
    assert.deepEqual(users.at(-1), ["look at the tests too", true]);
  }));
