// `acp-threads run --thread ID | --session NAME`: a stored thread continued from the CLI through the
// load → resume → seeded ladder, and two CLI processes on one thread: the second follows it read-only, names the
// holder, and takes over once the first exits (or exits 6 with --no-wait).
import assert from "node:assert/strict";
import { test } from "node:test";
import { liveWriter } from "../../../../src/core/store/file-lock";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { conversation } from "../../../../src/core/thread/conversation";
import { FAKE_AGENT, runCli, startCli, type CliResult } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const AGENT = FAKE_AGENT;
const start = (args: string[], home: string) => startCli(args, { home });
const run = (args: string[], home: string) => runCli(args, { home });
const summaryOf = (r: CliResult) => JSON.parse(r.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;

test("a named session is created on first use and continued by name, then by thread id", () =>
  withTmpDir("acp-run-thread-", async (home) => {
    const first = await run(["run", "--agent", AGENT, "--session", "fixes", "--format", "json", "one"], home);
    assert.equal(first.code, 0, first.stderr);
    const threadId = summaryOf(first).threadId as string;
    assert.equal(summaryOf(first).origin, "new");
    // stdin is a pipe here, not a terminal: the thread was started by automation (#36)
    assert.equal(new ThreadStore(home).readMetadata(threadId).startedFrom, "automation");
    const second = await run(["run", "--session", "fixes", "--format", "json", "two"], home);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual([summaryOf(second).threadId, summaryOf(second).origin], [threadId, "load"]);
    const third = await run(["run", "--thread", threadId.slice(0, 20), "three"], home);
    assert.equal(third.code, 0, third.stderr);
    assert.match(third.stdout, /echo: three/);
    const texts = conversation(new ThreadStore(home).read(threadId).records)
      .filter((e) => e.role === "user")
      .map((e) => e.text);
    assert.deepEqual(texts, ["one", "two", "three"]);
    // another agent for this thread is a handoff, not a run
    const other = await run(["run", "--thread", threadId, "--agent", "/usr/bin/env other-agent", "four"], home);
    assert.equal(other.code, 2);
    assert.match(other.stderr, /acp-threads handoff/);
    const unknown = await run(["run", "--session", "nope", "hi"], home);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no session 'nope' here yet: give --agent/);
  }));

test("acp-threads handoff names the new thread 'Handoff: <source title>', as the editor does", () =>
  withTmpDir("acp-run-thread-", async (home) => {
    const first = await run(["run", "--agent", AGENT, "--format", "json", "fix the flaky login test"], home);
    assert.equal(first.code, 0, first.stderr);
    const fromId = summaryOf(first).threadId as string;
    const handed = await run(["handoff", fromId, "--agent", AGENT, "--format", "json"], home);
    assert.equal(handed.code, 0, handed.stderr);
    const toId = summaryOf(handed).threadId as string;
    assert.notEqual(toId, fromId);
    assert.equal(new ThreadStore(home).read(toId).metadata.title, "Handoff: fix the flaky login test");
  }));

test("a second CLI process on a thread follows it read-only, names the holder and takes over when it exits", () =>
  withTmpDir("acp-run-thread-", async (home) => {
    const first = await run(["run", "--agent", AGENT, "--format", "json", "hello"], home);
    const threadId = summaryOf(first).threadId as string;
    const path = new ThreadStore(home).pathFor(threadId);
    // A holds the thread long enough for two more CLI processes to start on a loaded machine, then answers one more
    // prompt: B, following by then, must show that answer (with a 2.5 s hold and "sleeping" as the proof, B often
    // started after the text was written and had nothing to show)
    const a = start(["run", "--thread", threadId, "stream 3", "sleep 10000", "tail from A"], home);
    while (!liveWriter(path)) await new Promise((r) => setTimeout(r, 50));
    const holder = liveWriter(path)!;
    assert.equal(holder.pid, a.child.pid);
    assert.equal(holder.label, "acp-threads run");
    const refused = await run(["run", "--thread", threadId, "--no-wait", "nope"], home);
    assert.equal(refused.code, 6);
    assert.match(refused.stderr, new RegExp(`process ${a.child.pid}.*held by acp-threads run`));
    const b = await run(["run", "--thread", threadId, "after"], home);
    const ra = await a.done;
    assert.equal(ra.code, 0, ra.stderr);
    assert.equal(b.code, 0, b.stderr);
    assert.match(
      b.stderr,
      new RegExp(`being written by acp-threads run.*\\(pid ${a.child.pid}\\); following it read-only`),
    );
    assert.match(b.stderr, /let go of thread .*; taking it over/);
    assert.match(b.stdout, /echo: tail from A/, "B showed what A wrote while it followed");
    assert.match(b.stdout, /echo: after/);
    const users = conversation(new ThreadStore(home).read(threadId).records)
      .filter((e) => e.role === "user")
      .map((e) => e.text);
    assert.deepEqual(users, ["hello", "stream 3", "sleep 10000", "tail from A", "after"]);
  }));
