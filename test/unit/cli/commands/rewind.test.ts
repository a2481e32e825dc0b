// `acp-threads rewind THREAD --to N`: Claude Code's rewind ("Edit and resend") — restore the files to before prompt
// N's turn (an undoable restore that refuses files changed since), fork the conversation before it with the edited
// prompt as the fork's next prompt, or both.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { numberedMessages } from "../../../../src/core/handoff/fork-cut";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { FAKE_AGENT, runCli } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const summaryOf = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
const texts = (home: string, id: string) => numberedMessages(new ThreadStore(home).read(id).records).map((m) => m.text);
const threadCount = (home: string) =>
  readdirSync(new ThreadStore(home).threadsDir).filter((f) => f.endsWith(".jsonl")).length;

/** A thread of three prompts: turn 1 writes a.txt "one", turn 2 writes "two" and b.txt, turn 3 says hello. */
async function threeTurns(dir: string) {
  const home = join(dir, "home");
  const ws = join(dir, "ws");
  mkdirSync(ws);
  const a = join(ws, "a.txt");
  const b = join(ws, "b.txt");
  const res = await runCli(
    [
      "run",
      "--agent",
      FAKE_AGENT,
      "--permission",
      "approve-all",
      "--format",
      "json",
      `write ${a} one`,
      `write ${a} two`,
      `write ${b} bee`,
      "hello",
    ],
    { home, cwd: ws },
  );
  assert.equal(res.code, 0, res.stderr);
  return { home, ws, a, b, id: summaryOf(res.stdout).threadId as string };
}

test("rewind --to N (code and conversation) restores the files to before prompt N and forks before it with the edited prompt", () =>
  withTmpDir("acp-rewind-", async (dir) => {
    const { home, ws, a, b, id } = await threeTurns(dir);
    assert.equal(readFileSync(a, "utf8"), "two");
    const before = texts(home, id);
    const res = await runCli(["rewind", id, "--to", "3", "--prompt", "say it differently"], { home, cwd: ws });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /restored 2 file\(s\); recorded as restore-/);
    const forkId = /forked before message 3 → (\S+)/.exec(res.stdout)![1]!;
    assert.equal(existsSync(b), false, "b.txt (made in turn 3) is gone");
    assert.equal(readFileSync(a, "utf8"), "one", "a.txt is back to before turn 2");
    const forked = texts(home, forkId);
    assert.deepEqual(forked.slice(0, 3), [before[0], before[1], "say it differently"]);
    assert.match(
      forked[3]!,
      /echo: [^]*write [^]* one[^]*say it differently/,
      "the fork's agent got the history up to message 2",
    );
    assert.doesNotMatch(forked[3]!, / two/);
    assert.deepEqual(texts(home, id), before, "the source conversation is unchanged");
    const store = new ThreadStore(home);
    assert.deepEqual(store.read(forkId).metadata.origin, { kind: "fork", source: id, messageIndex: 2 });
    assert.deepEqual(store.read(id).metadata.forks, [forkId]);
    // the restore is undoable like any restore
    const undo = await runCli(["restore", id, "--undo"], { home, cwd: ws });
    assert.equal(undo.code, 0, undo.stderr);
    assert.equal(readFileSync(b, "utf8"), "bee");
  }));

test("rewind --code restores the files only; --conversation forks only", () =>
  withTmpDir("acp-rewind-", async (dir) => {
    const { home, ws, a, b, id } = await threeTurns(dir);
    const count = threadCount(home);
    const code = await runCli(["rewind", id, "--to", "5", "--code"], { home, cwd: ws });
    assert.equal(code.code, 0, code.stderr);
    assert.equal(existsSync(b), false);
    assert.equal(readFileSync(a, "utf8"), "two", "turn 2 is kept");
    assert.equal(threadCount(home), count, "no fork");
    assert.equal(texts(home, id).length, 8);
    const conv = await runCli(["rewind", id, "--to", "3", "--conversation", "--format", "json"], { home, cwd: ws });
    assert.equal(conv.code, 0, conv.stderr);
    const out = JSON.parse(conv.stdout) as { threadId: string; restore: unknown; forkedFrom: unknown };
    assert.equal(out.restore, null);
    assert.deepEqual(out.forkedFrom, { threadId: id, messageIndex: 2 });
    assert.equal(texts(home, out.threadId).length, 2);
    assert.equal(readFileSync(a, "utf8"), "two", "files untouched");
    // the first prompt: an empty fork
    const first = await runCli(["rewind", id, "--to", "1", "--conversation", "--format", "json"], { home, cwd: ws });
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(texts(home, (JSON.parse(first.stdout) as { threadId: string }).threadId), []);
  }));

test("bad input: a file changed since is not overwritten (nothing restored, no fork); an agent message or an index out of range is a usage error", () =>
  withTmpDir("acp-rewind-", async (dir) => {
    const { home, ws, a, b, id } = await threeTurns(dir);
    writeFileSync(b, "mine");
    const count = threadCount(home);
    const refused = await runCli(["rewind", id, "--to", "3"], { home, cwd: ws });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /changed after the thread's last change to it; restoring would overwrite those edits: .*b\.txt/,
    );
    assert.equal(readFileSync(b, "utf8"), "mine");
    assert.equal(readFileSync(a, "utf8"), "two");
    assert.equal(threadCount(home), count);
    const agentMsg = await runCli(["rewind", id, "--to", "2"], { home, cwd: ws });
    assert.equal(agentMsg.code, 2);
    assert.match(
      agentMsg.stderr,
      /message 2 of thread .* is an agent message: rewind to one of its prompts \(1, 3, 5, 7\)/,
    );
    const out = await runCli(["rewind", id, "--to", "9"], { home, cwd: ws });
    assert.equal(out.code, 2);
    assert.match(out.stderr, /message 9 is out of range: thread .* has 8 messages \(1–8/);
    const both = await runCli(["rewind", id, "--to", "3", "--code", "--prompt", "x"], { home, cwd: ws });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--prompt starts the forked conversation: it does not go with --code/);
    const forced = await runCli(["rewind", id, "--to", "3", "--code", "--force"], { home, cwd: ws });
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(existsSync(b), false);
  }));
